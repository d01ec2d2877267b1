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
 * A slash command as data with what running it means (`Run`): the app's built-ins are each one
 * object (`app/commands/builtin-commands.ts` lists them), so the list, the completion popup, the
 * palette and `/help` share one source.
 */
export interface SlashCommand<Run = undefined> {
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
  run?: Run | undefined;
}

/**
 * Built-ins plus custom commands, skills and MCP prompts; an extra whose name (or alias) clashes
 * with an earlier command is dropped, so a file cannot shadow `/exit`. Sorted by name.
 */
export function mergeCommands<Command extends SlashCommand<unknown>>(
  ...lists: readonly (readonly Command[])[]
): Command[] {
  const taken = new Set<string>();
  const merged: Command[] = [];
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
export function filterCommands<Command extends SlashCommand<unknown>>(
  commands: readonly Command[],
  query: string,
  limit?: number,
): FuzzyResult<Command>[] {
  const bare = query.replace(/^\//, "");
  return fuzzyFilter(
    commands,
    bare,
    (command) => [command.name, ...(command.aliases ?? [])].join(" "),
    limit,
  );
}

/** The command an input runs (`/model gpt-5` → model, args "gpt-5"); undefined when not a known command. */
export function findCommand<Command extends SlashCommand<unknown>>(
  commands: readonly Command[],
  input: string,
): { command: Command; args: string } | undefined {
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
