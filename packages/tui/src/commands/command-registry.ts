import { compareText } from "@nyzhi/config";
import { parseSlashInput } from "@nyzhi/core";
import { type FuzzyResult, fuzzyFilter } from "../fuzzy/fuzzy-match.js";

/**
 * `instant` commands run at once, even while a turn runs; `prompt` commands talk to the model,
 * so while a turn runs they wait in the queue like a prompt.
 */
export type CommandKind = "instant" | "prompt";

/** Where a command comes from; custom ones are files or config, skills and MCP prompts too. */
export type CommandSource = "builtin" | "custom" | "skill" | "mcp";

/**
 * A slash command as data. The app attaches what running it means (`Handler`), so the list, the
 * completion popup, the palette and `/help` share one source.
 */
export interface SlashCommand<Handler = undefined> {
  /** Without the slash: `model`. */
  name: string;
  description: string;
  kind: CommandKind;
  /** Other names that run it: `quit` for `exit`. */
  aliases?: readonly string[] | undefined;
  /** Usage of its arguments, e.g. `[id]`. */
  args?: string | undefined;
  /** Heading in the palette (Session, Project …). */
  group?: string | undefined;
  source?: CommandSource | undefined;
  handler?: Handler | undefined;
}

/** The app's built-in commands (issue 19), without handlers. */
export const BUILTIN_COMMANDS: readonly SlashCommand[] = [
  { name: "help", description: "List commands and keys", kind: "instant", group: "System" },
  {
    name: "model",
    description: "Pick the model, or switch to an id",
    kind: "instant",
    args: "[id]",
    group: "Provider",
  },
  { name: "login", description: "Credentials per provider", kind: "instant", group: "Provider" },
  {
    name: "think",
    description: "Extended thinking on or off, or its token budget",
    kind: "instant",
    args: "[on|off|budget N]",
    group: "Agent",
  },
  {
    name: "thinking",
    description: "Pick the current model's thinking level",
    kind: "instant",
    args: "[level]",
    group: "Agent",
  },
  {
    name: "plan",
    description: "Show the plan, or plan mode on/off (Shift+Tab cycles plan → normal → auto-accept edits)",
    kind: "instant",
    args: "[on|off]",
    group: "Agent",
  },
  {
    name: "trust",
    description: "Whether this folder is trusted (its config may widen power); shows the trust mode",
    kind: "instant",
    args: "[on|remove]",
    group: "Agent",
  },
  {
    name: "sandbox",
    description: "Where tools may write",
    kind: "instant",
    args: "[read-only|workspace-write|full-access]",
    group: "Agent",
  },
  {
    name: "compact",
    description: "Summarize the conversation to free context",
    kind: "prompt",
    args: "[focus]",
    group: "Session",
  },
  { name: "context", description: "Where the context tokens go", kind: "instant", group: "Session" },
  {
    name: "clear",
    description: "Clear the transcript and start a new thread",
    kind: "instant",
    group: "Session",
  },
  {
    name: "export",
    description: "Write the session as Markdown (to the data dir unless a path is given)",
    kind: "instant",
    args: "[path]",
    group: "Session",
  },
  {
    name: "sessions",
    description: "Pick a session to resume",
    kind: "instant",
    aliases: ["resume"],
    args: "[query]",
    group: "Session",
  },
  { name: "undo", description: "Revert the last change", kind: "instant", args: "[all]", group: "Session" },
  {
    name: "checkpoint",
    description: "Save or restore a checkpoint",
    kind: "instant",
    args: "[list|save|restore]",
    group: "Session",
  },
  { name: "diff", description: "Show every change of this session", kind: "instant", group: "View" },
  { name: "changes", description: "List files changed this session", kind: "instant", group: "View" },
  { name: "mcp", description: "MCP servers and their tools", kind: "instant", group: "Project" },
  {
    name: "memory",
    description: "Show or edit memory topics",
    kind: "instant",
    args: "[topic]",
    group: "View",
  },
  {
    name: "notepad",
    description: "Show the plan's notepads",
    kind: "instant",
    args: "[name]",
    group: "View",
  },
  { name: "todo", description: "Show the todo list", kind: "instant", group: "View" },
  { name: "hooks", description: "List configured hooks", kind: "instant", group: "Project" },
  { name: "skills", description: "List skills", kind: "instant", group: "Project" },
  { name: "init", description: "Scaffold .nyzhi/ for this project", kind: "instant", group: "Project" },
  {
    name: "doctor",
    description: "Check credentials, bubblewrap, ripgrep, config",
    kind: "instant",
    group: "Project",
  },
  {
    name: "theme",
    description: "Dark, light or auto",
    kind: "instant",
    args: "[dark|light|auto]",
    group: "UI",
  },
  { name: "settings", description: "Display and agent settings", kind: "instant", group: "UI" },
  {
    name: "agents",
    description: "Show or hide the agents panel; list the roles",
    kind: "instant",
    group: "Agents",
  },
  {
    name: "subagent-config",
    description: "Model per subagent role, this session",
    kind: "instant",
    args: "[list|set <role> <model>|reset <role>]",
    group: "Agents",
  },
  { name: "team", description: "Members, inboxes and the task board", kind: "instant", group: "Agents" },
  {
    name: "teams-config",
    description: "Team config files; set a member's model",
    kind: "instant",
    args: "[set <team> <member> <model>]",
    group: "Agents",
  },
  {
    name: "bg",
    description: "Turns sent to the background (ctrl+b)",
    kind: "instant",
    args: "[stop]",
    group: "Agents",
  },
  { name: "exit", description: "Quit nyz", kind: "instant", aliases: ["quit"], group: "System" },
];

/**
 * Built-ins plus custom commands, skills and MCP prompts; an extra whose name (or alias) clashes
 * with an earlier command is dropped, so a file cannot shadow `/exit`. Sorted by name.
 */
export function mergeCommands<Handler>(
  ...lists: readonly (readonly SlashCommand<Handler>[])[]
): SlashCommand<Handler>[] {
  const taken = new Set<string>();
  const merged: SlashCommand<Handler>[] = [];
  for (const list of lists) {
    for (const command of list) {
      const names = [command.name, ...(command.aliases ?? [])].map((name) => name.toLowerCase());
      if (names.some((name) => taken.has(name))) continue;
      for (const name of names) taken.add(name);
      merged.push(command);
    }
  }
  return merged.sort((left, right) => compareText(left.name, right.name));
}

/**
 * Commands matching what follows the `/`, best first, for the completion popup and the palette.
 * A match on the name or an alias counts; an empty query lists them all.
 */
export function filterCommands<Handler>(
  commands: readonly SlashCommand<Handler>[],
  query: string,
  limit?: number,
): FuzzyResult<SlashCommand<Handler>>[] {
  const bare = query.replace(/^\//, "");
  return fuzzyFilter(
    commands,
    bare,
    (command) => [command.name, ...(command.aliases ?? [])].join(" "),
    limit,
  );
}

/** The command an input runs (`/model gpt-5` → model, args "gpt-5"); undefined when not a known command. */
export function findCommand<Handler>(
  commands: readonly SlashCommand<Handler>[],
  input: string,
): { command: SlashCommand<Handler>; args: string } | undefined {
  const parsed = parseSlashInput(input);
  if (!parsed) return undefined;
  const name = parsed.name.toLowerCase();
  const command = commands.find(
    (candidate) =>
      candidate.name.toLowerCase() === name ||
      candidate.aliases?.some((alias) => alias.toLowerCase() === name),
  );
  return command ? { command, args: parsed.args } : undefined;
}

/** What the app says for `/xyz` that names no command (the original sent it to the model). */
export function unknownCommandMessage(input: string): string {
  const name = parseSlashInput(input)?.name ?? input.trim().replace(/^\//, "").split(/\s/)[0] ?? "";
  return `Unknown command /${name} — /help lists them`;
}
