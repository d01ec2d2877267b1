/**
 * Cuts `text` to at most `maxChars` code points (never inside a surrogate pair), keeping the head
 * and the tail and saying how much was left out, so the model knows the output is partial.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const codePoints = Array.from(text);
  if (codePoints.length <= maxChars) return text;
  const headCount = Math.floor(maxChars * 0.8);
  const tailCount = Math.max(0, maxChars - headCount);
  const omitted = codePoints.length - headCount - tailCount;
  const head = codePoints.slice(0, headCount).join("");
  const tail = tailCount > 0 ? codePoints.slice(codePoints.length - tailCount).join("") : "";
  return `${head}\n\n… [output truncated: ${omitted} characters omitted] …\n\n${tail}`;
}

/** Cuts to `maxChars` code points and appends `suffix` when cut (titles, previews). */
export function truncateEnd(text: string, maxChars: number, suffix = "…"): string {
  const codePoints = Array.from(text);
  if (codePoints.length <= maxChars) return text;
  return codePoints.slice(0, maxChars).join("") + suffix;
}
