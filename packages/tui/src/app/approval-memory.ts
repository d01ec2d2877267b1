import type { ApprovalPrompt } from "@nyzhi/core";

/**
 * What "allow always" (`a`) remembers for the rest of the app's session: the tool with the path
 * it named, the tool with the command's prefix (`npm test`, `git status`, `ls`), or the tool alone
 * when its call names neither.
 */
export type ApprovalRule =
  | { tool: string; path: string }
  | { tool: string; commandPrefix: string }
  | { tool: string; any: true };

/** Shell control characters: a command holding one is never allowed by a remembered prefix. */
const SHELL_CONTROL = /[;&|`<>\n\\]|\$\(/;

function stringField(input: unknown, key: string): string | undefined {
  const value =
    typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The path a call names (`file_path` of the file tools, `path` of others). */
export function pathOf(input: unknown): string | undefined {
  return stringField(input, "file_path") ?? stringField(input, "path");
}

/**
 * The first word of a command, plus its second when that is a plain word (a subcommand or
 * script: `npm test`, `git status`), not a flag: `rm -rf x` → `rm`.
 */
export function commandPrefix(command: string): string {
  const words = command.trim().split(/\s+/);
  const [first = "", second] = words;
  return second !== undefined && /^[\w:.@/-]+$/.test(second) && !second.startsWith("-")
    ? `${first} ${second}`
    : first;
}

/** The rule an "allow always" answer to `prompt` adds. */
export function ruleFor(prompt: Pick<ApprovalPrompt, "tool" | "input">): ApprovalRule {
  const command = stringField(prompt.input, "command");
  if (command !== undefined) return { tool: prompt.tool, commandPrefix: commandPrefix(command) };
  const path = pathOf(prompt.input);
  if (path !== undefined) return { tool: prompt.tool, path };
  return { tool: prompt.tool, any: true };
}

/** Whether a remembered rule answers `prompt` without asking. */
export function matchesRule(rule: ApprovalRule, prompt: Pick<ApprovalPrompt, "tool" | "input">): boolean {
  if (rule.tool !== prompt.tool) return false;
  const command = stringField(prompt.input, "command");
  if ("commandPrefix" in rule) {
    if (command === undefined || SHELL_CONTROL.test(command)) return false;
    const trimmed = command.trim().replace(/\s+/g, " ");
    return trimmed === rule.commandPrefix || trimmed.startsWith(`${rule.commandPrefix} `);
  }
  if ("path" in rule) return pathOf(prompt.input) === rule.path;
  return command === undefined && pathOf(prompt.input) === undefined;
}

/** "bash `npm test …`", "edit src/a.ts", "web_fetch": for the notice after `a`. */
export function describeRule(rule: ApprovalRule): string {
  if ("commandPrefix" in rule) return `${rule.tool} \`${rule.commandPrefix} …\``;
  if ("path" in rule) return `${rule.tool} ${rule.path}`;
  return rule.tool;
}
