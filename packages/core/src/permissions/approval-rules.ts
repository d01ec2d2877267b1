import { dirname } from "node:path";
import type { AgentTag } from "../events/agent-events.js";
import type { ToolKind } from "../tools/seam/tool-types.js";

/** What an approval is asked about: the call as the gate sees it. */
export interface ApprovalSubject {
  tool: string;
  kind: ToolKind;
  input: unknown;
  /** The paths the call names (resolved by the loop); a file tool's rule covers their folders. */
  paths?: readonly string[] | undefined;
}

/**
 * What one "allow always" answer allows for the rest of the session: a command tool with the
 * command's prefix (`npm test`, `git status`, `ls`), a file tool in the folders its call named, or
 * the tool alone when its call names neither. One engine for every host (the app, library users).
 */
export interface ApprovalRule {
  /** Stable within the session: `session.permissions.forget(id)` removes the rule. */
  id: string;
  tool: string;
  match: { commandPrefix: string } | { folders: readonly string[] } | { any: true };
  /** "bash `npm test …`", "edit in src", "web_fetch": for the person. */
  description: string;
  /** Who was asked when the rule was made. */
  agent: AgentTag;
}

/** Shell control characters: a command holding one is never allowed by a remembered prefix. */
const SHELL_CONTROL = /[;&|`<>\n\\]|\$\(/;

function stringField(input: unknown, key: string): string | undefined {
  const value =
    typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
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

function foldersOf(subject: ApprovalSubject): string[] {
  return [...new Set((subject.paths ?? []).map((path) => dirname(path)))].sort();
}

/** The match an "allow always" answer to `subject` adds. */
export function ruleMatchFor(subject: ApprovalSubject): ApprovalRule["match"] {
  const command = stringField(subject.input, "command");
  if (subject.kind === "execute" && command !== undefined) return { commandPrefix: commandPrefix(command) };
  const folders = foldersOf(subject);
  if (folders.length > 0) return { folders };
  return { any: true };
}

export function describeRuleMatch(tool: string, match: ApprovalRule["match"]): string {
  if ("commandPrefix" in match) return `${tool} \`${match.commandPrefix} …\``;
  if ("folders" in match) return `${tool} in ${match.folders.join(", ")}`;
  return tool;
}

/**
 * Whether a remembered rule answers `subject` without asking. A command matches its prefix as
 * whole words and never when it chains another (`npm test && rm -rf build`); a file call matches
 * when every path it names is in one of the rule's folders (not their subfolders).
 */
export function matchesRule(rule: Pick<ApprovalRule, "tool" | "match">, subject: ApprovalSubject): boolean {
  if (rule.tool !== subject.tool) return false;
  const { match } = rule;
  if ("commandPrefix" in match) {
    const command = stringField(subject.input, "command");
    if (command === undefined || SHELL_CONTROL.test(command)) return false;
    const trimmed = command.trim().replace(/\s+/g, " ");
    return trimmed === match.commandPrefix || trimmed.startsWith(`${match.commandPrefix} `);
  }
  if ("folders" in match) {
    const folders = foldersOf(subject);
    return folders.length > 0 && folders.every((folder) => match.folders.includes(folder));
  }
  return stringField(subject.input, "command") === undefined && foldersOf(subject).length === 0;
}
