/** One `@path` in a message. */
export interface Mention {
  /** The path as typed (`~` not yet expanded), without the `@`. */
  path: string;
  /** Where the `@` is in the message (UTF-16 index). */
  start: number;
}

const MENTION = /@([\w./~-]+)/g;

/**
 * The `@path` mentions of a message, first occurrence of each path only. An `@` right after a
 * letter, a digit or a dot is not a mention (`me@example.com`); a trailing `.` or `,` is taken as
 * punctuation of the sentence, not part of the path (`look at @notes.txt.`).
 */
export function findMentions(text: string): Mention[] {
  const found: Mention[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const start = match.index;
    const before = start > 0 ? text[start - 1]! : "";
    if (/[\p{L}\p{N}.]/u.test(before)) continue;
    const path = match[1]!.replace(/[.,]+$/, "");
    if (path === "" || path === "~" || seen.has(path)) continue;
    seen.add(path);
    found.push({ path, start });
  }
  return found;
}
