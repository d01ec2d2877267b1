import type { ThinkingOptions, UserContentPart } from "@nyzhi/provider";
import { thinkingForLevel } from "@nyzhi/provider";

/** What a prompt's mode prefixes ask of its one turn. */
export interface PromptModes {
  /** The prompt without the prefixes. */
  text: string;
  /** `plan:`: this turn runs in plan mode. */
  planMode: boolean;
  /** `think:` (on), `deep:` (high, 16384), `ultra:` (xhigh, 32768): this turn's thinking. */
  thinking: ThinkingOptions | undefined;
  /** The level the prefixes chose, for display ("on", "high", "xhigh"). */
  thinkingLevel: string | undefined;
}

/** The prefixes and the thinking level each asks for (spec edges §3.8, §5.6); `plan:` has none. */
const PREFIXES: ReadonlyArray<readonly [string, string | undefined]> = [
  ["plan:", undefined],
  ["think:", "on"],
  ["deep:", "high"],
  ["ultra:", "xhigh"],
];

/**
 * Reads the mode prefixes of a prompt (spec edges §5.6): each matches case-insensitively at the
 * start or after a space, and its first occurrence is removed. Unlike the original, they change
 * only this prompt's turn, never the session's settings (the original left them on).
 */
export function readPromptModes(prompt: string): PromptModes {
  let text = prompt;
  let planMode = false;
  let thinkingLevel: string | undefined;
  for (const [prefix, level] of PREFIXES) {
    const at = findPrefix(text, prefix);
    if (at < 0) continue;
    // The prefix and the spaces after it go; the rest of the prompt (its newlines) stays as typed.
    const after = text.slice(at + prefix.length).replace(/^[ \t]+/, "");
    text = `${text.slice(0, at)}${after}`;
    if (level === undefined) planMode = true;
    else if (!thinkingLevel || rank(level) > rank(thinkingLevel)) thinkingLevel = level;
  }
  const thinking = thinkingLevel ? thinkingForLevel(thinkingLevel) : undefined;
  const changed = planMode || thinkingLevel !== undefined;
  return { text: changed ? text.trim() : prompt, planMode, thinking, thinkingLevel };
}

function findPrefix(text: string, prefix: string): number {
  const lower = text.toLowerCase();
  let at = lower.indexOf(prefix);
  while (at >= 0) {
    if (at === 0 || /\s/.test(lower[at - 1] ?? "")) return at;
    at = lower.indexOf(prefix, at + 1);
  }
  return -1;
}

function rank(level: string): number {
  return ["on", "high", "xhigh"].indexOf(level);
}

/**
 * A turn's input without its mode prefixes (read from the text, or from the last text part of a
 * multi-part input: what was typed, after images and an `@path` context block), and what they ask for.
 */
export function withoutModePrefixes<Input extends string | UserContentPart[]>(
  input: Input,
): { input: Input; modes: PromptModes } {
  if (typeof input === "string") {
    const modes = readPromptModes(input);
    return { input: modes.text as Input, modes };
  }
  const last = input.findLastIndex((part) => part.type === "text");
  const part = input[last];
  if (part?.type !== "text") {
    return { input, modes: { text: "", planMode: false, thinking: undefined, thinkingLevel: undefined } };
  }
  const modes = readPromptModes(part.text);
  const parts = input.map((each, index) => (index === last ? { ...part, text: modes.text } : each));
  return { input: parts as Input, modes };
}
