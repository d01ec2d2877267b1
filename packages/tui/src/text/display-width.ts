import stringWidth from "string-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The user-perceived characters of a text (an emoji with modifiers or a flag is one). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (segment) => segment.segment);
}

/** Terminal cells a text takes (CJK and most emoji take two). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** Cuts a text to at most `width` cells, ending with "…" when it was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  let result = "";
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const cells = displayWidth(grapheme);
    if (used + cells > width - 1) break;
    result += grapheme;
    used += cells;
  }
  return `${result}…`;
}

/** Pads a text with spaces to `width` cells, aligned left, right or centred. */
export function padToWidth(text: string, width: number, align: "left" | "right" | "center" = "left"): string {
  const gap = Math.max(0, width - displayWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
  return text + " ".repeat(gap);
}
