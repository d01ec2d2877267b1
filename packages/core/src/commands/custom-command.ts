/** Where a custom command came from; `config` (`[[agent.commands]]`) overrides files of the same name. */
export type CustomCommandSource = "nyzhi" | "claude" | "config";

/** A user-defined slash command: `/name args` becomes `expandCommand(command, args)` sent as the user's message. */
export interface CustomCommand {
  name: string;
  /** Shown in the command palette and `/help`; empty when the file gives none. */
  description: string;
  /** The prompt, with `$ARGUMENTS` and `$1`…`$9` placeholders. */
  template: string;
  source: CustomCommandSource;
  /** The Markdown file, for file commands. */
  path?: string;
  /** Claude Code's `argument-hint` front matter, e.g. `[file] [focus]`. */
  argumentHint?: string;
}

export interface LoadedCustomCommands {
  /** Sorted by name; one per name. */
  commands: CustomCommand[];
  /** `warning: <file or config key>: …` lines for commands that were skipped. */
  warnings: string[];
}

/** Command names: a letter or digit, then letters, digits, `-`, `_`, `.` or `:`. */
export const COMMAND_NAME = /^[A-Za-z0-9][\w.:-]*$/;
