import type { CustomCommand } from "./custom-command.js";

const PLACEHOLDER = /\$(ARGUMENTS|[1-9])(?!\d)/g;

/**
 * The prompt a custom command sends for `args`: `$ARGUMENTS` becomes the whole (trimmed)
 * argument text, `$1`…`$9` its whitespace-separated words (quotes group words; missing ones are
 * empty), in one pass so argument text is never expanded again. A template without any
 * placeholder gets non-empty arguments appended as `ARGUMENTS: <args>` (as Claude Code does), so
 * they are not lost. The result is trimmed.
 */
export function expandCommand(command: Pick<CustomCommand, "template">, args: string): string {
  const text = args.trim();
  const words = splitWords(text);
  let used = false;
  const expanded = command.template.replace(PLACEHOLDER, (_match, key: string) => {
    used = true;
    return key === "ARGUMENTS" ? text : (words[Number(key) - 1] ?? "");
  });
  if (!used && text !== "") return `${expanded.trim()}\n\nARGUMENTS: ${text}`;
  return expanded.trim();
}

/** Splits on whitespace; `"a b"` and `'a b'` are one word (without the quotes). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  }
  return words;
}
