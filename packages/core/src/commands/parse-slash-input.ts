/** A slash command as typed: `/review src/a.ts` → `{ name: "review", args: "src/a.ts" }`. */
export interface SlashInput {
  name: string;
  /** Everything after the name, trimmed; may span lines. Empty when there is none. */
  args: string;
}

const SLASH_INPUT = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/;

/**
 * Reads a slash command from the user's input, or undefined when the input is not one (no leading
 * `/`, a bare `/`, or a path such as `/usr/bin/env`).
 */
export function parseSlashInput(input: string): SlashInput | undefined {
  const match = SLASH_INPUT.exec(input.trim());
  if (!match) return undefined;
  return { name: match[1]!, args: (match[2] ?? "").trim() };
}
