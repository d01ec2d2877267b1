import stringWidth from "string-width";

/**
 * Characters one column wide with nothing joining them: printable ASCII, Latin-1 and the Latin
 * extensions (no soft hyphen, no combining marks), general punctuation (dashes, quotes, bullets,
 * ellipsis), arrows, box drawing and block elements, braille (spinners). The app's rows are made of
 * these; `fast-string-width.test.ts` checks each against `string-width` itself.
 */
const NARROW_ONLY =
  /^[\u0020-\u007E\u00A0-\u00AC\u00AE-\u02FF\u2010-\u2027\u2030-\u205E\u2190-\u21FF\u2500-\u259F\u2800-\u28FF]*$/;
/** SGR sequences (colours, bold …): they take no column. */
const SGR = /\u001B\[[0-9;]*m/g;
const MAX_CACHED = 4000;
const cache = new Map<string, number>();

export interface StringWidthOptions {
  ambiguousIsNarrow?: boolean;
  countAnsiEscapeCodes?: boolean;
}

/**
 * `string-width` for the app's frames: the same answers, without segmenting every row of every
 * frame into graphemes. A row of narrow characters (with or without colour) is measured by its
 * length; any other is measured once by `string-width` and remembered. The app's bundle gives ink,
 * wrap-ansi and the frame writer this one for `string-width` (see the CLI's tsup.config.ts):
 * eight streaming subagents spent about a fifth of the app's CPU in `string-width`.
 */
export default function fastStringWidth(input: string, options?: StringWidthOptions): number {
  if (typeof input !== "string" || input.length === 0) return 0;
  if (options?.ambiguousIsNarrow === false || options?.countAnsiEscapeCodes === true)
    return stringWidth(input, options);
  if (NARROW_ONLY.test(input)) return input.length;
  const bare = input.includes("\u001B") ? input.replace(SGR, "") : input;
  if (bare !== input && NARROW_ONLY.test(bare)) return bare.length;
  const known = cache.get(input);
  if (known !== undefined) return known;
  const width = stringWidth(input);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(input, width);
  return width;
}
