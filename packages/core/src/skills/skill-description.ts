/** Longest description taken from a skill's text when its front matter has none, in characters. */
export const MAX_FALLBACK_DESCRIPTION_CHARS = 120;

/**
 * The description of a skill whose front matter gives none: a legacy `description:` line
 * anywhere in the body, else the first line that is not blank, a heading or a `---` rule,
 * cut to `MAX_FALLBACK_DESCRIPTION_CHARS`. Empty when the body has no such line.
 */
export function fallbackDescription(body: string): string {
  const lines = body.split(/\r?\n/).map((line) => line.trim());
  const legacy = lines.find((line) => /^description:/i.test(line));
  const chosen = legacy
    ? legacy.replace(/^description:\s*/i, "")
    : lines.find((line) => line !== "" && !line.startsWith("#") && !/^-{3,}$/.test(line));
  return Array.from(chosen ?? "")
    .slice(0, MAX_FALLBACK_DESCRIPTION_CHARS)
    .join("")
    .trim();
}

/** A front-matter value as one line of text, or undefined when it is not a non-blank string. */
export function singleLine(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/\s+/g, " ").trim();
  return text === "" ? undefined : text;
}
