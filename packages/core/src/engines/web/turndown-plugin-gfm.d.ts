/** Types for @joplin/turndown-plugin-gfm (the package ships none): turndown plugins for GitHub Markdown. */
declare module "@joplin/turndown-plugin-gfm" {
  import type TurndownService from "turndown";

  /** Tables, strikethrough, task list items and GitHub's highlighted code blocks. */
  export const gfm: TurndownService.Plugin;
  export const tables: TurndownService.Plugin;
  export const strikethrough: TurndownService.Plugin;
  export const taskListItems: TurndownService.Plugin;
  export const highlightedCodeBlock: TurndownService.Plugin;
}
