/**
 * Translates a ripgrep pattern (Rust's `regex` syntax) to a JavaScript RegExp that matches the
 * same lines, or gives undefined when the pattern uses anything outside the subset translated
 * here exactly — then only ripgrep can be trusted with it.
 *
 * Only *which lines match* has to agree (grep reports lines, not match positions), so greedy and
 * lazy repetition, alternation order and capture groups need no care. What does differ, and is
 * rewritten: Rust's `\d`, `\w`, `\s` and `\b` are Unicode-aware (JavaScript's are ASCII, or a
 * slightly different set for `\s`), and Rust's `.` matches `\r`, `\u2028` and `\u2029` where
 * JavaScript's does not. Refused: inline flags and other `(?` groups, Unicode property classes,
 * nested or POSIX classes and class set operations, `\A`/`\z`/`\<`-style anchors, a literal `\n`
 * (which ripgrep rejects without multiline mode), a `]` first in a class, stray `]` or `}`, and
 * any `{` that is not a counted repetition. Known, rare difference: Node's Unicode tables can be
 * newer than the installed ripgrep's (a few recent letters count as `\w` here only).
 */
export function rustRegexToJs(pattern: string, caseInsensitive: boolean): RegExp | undefined {
  return translateRustRegex(pattern, caseInsensitive)?.regex;
}

/** A translated pattern, with what decides how much backtracking it can cost. */
export interface TranslatedRegex {
  regex: RegExp;
  /**
   * Choice points in the costliest top-level alternative: every quantifier that can match more
   * than one way (`?`, `*`, `+`, `{n,m}` with m > n) and every group holding a `|`. JavaScript's
   * engine backtracks (ripgrep's does not): with k of them a line of n characters can cost about
   * n^(k+1) steps, and more when they overlap.
   */
  choicePoints: number;
  /** A group is repeated (`(…)*`, `(…)?`, `(…){n,m}`): exponential backtracking is possible. */
  repeatsGroup: boolean;
}

/** {@link rustRegexToJs} with the pattern's repetition structure. */
export function translateRustRegex(pattern: string, caseInsensitive: boolean): TranslatedRegex | undefined {
  const translated = translate(pattern);
  if (translated === undefined) return undefined;
  try {
    return { ...translated, regex: new RegExp(translated.source, caseInsensitive ? "iu" : "u") };
  } catch {
    // Invalid in JavaScript too; ripgrep gives the error message the user expects.
    return undefined;
  }
}

/** Rust's `\w`: UTS #18's word characters. */
const WORD = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
/** Rust's `\s`: the Unicode White_Space property. */
const SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/** Rust's `\d`: decimal digits of every script. */
const DIGIT = "\\p{Nd}";
const WORD_BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
const NOT_WORD_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;

/** Characters JavaScript lets `\` escape in a `u` pattern (anything else escaped is an error). */
const JS_ESCAPABLE = new Set("^$\\.*+?()[]{}|/");
/** ASCII punctuation Rust lets `\` escape to a literal (`\<` and `\>` are word anchors there). */
const ASCII_PUNCTUATION = /^[!-/:;=?@[-`{-~]$/;
const SIMPLE_ESCAPES = new Set("tfrv");
const COUNTED_REPETITION = /^\{(\d+)(?:,(\d*))?\}/;

function translate(
  pattern: string,
): { source: string; choicePoints: number; repeatsGroup: boolean } | undefined {
  let out = "";
  let index = 0;
  let repeatsGroup = false;
  /** Choice points of the current top-level alternative, and the most of any finished one. */
  let choicePoints = 0;
  let mostChoicePoints = 0;
  /** One entry per open group: whether it holds a `|`. */
  const groups: boolean[] = [];
  /** What the last token was: a quantifier's `?` suffix makes it lazy, after `)` it repeats a group. */
  let previous: "start" | "atom" | "group" | "quantifier" = "start";
  const quantifier = (choices: boolean): "quantifier" => {
    if (previous === "group") repeatsGroup = true;
    if (choices) choicePoints += 1;
    return "quantifier";
  };
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === "\\") {
      const escaped = translateEscape(pattern, index, false);
      if (escaped === undefined) return undefined;
      out += escaped.text;
      index = escaped.end;
      previous = "atom";
    } else if (char === "[") {
      const klass = translateClass(pattern, index);
      if (klass === undefined) return undefined;
      out += klass.text;
      index = klass.end;
      previous = "atom";
    } else if (char === "(") {
      const nonCapturing = pattern.startsWith("(?:", index);
      if (pattern[index + 1] === "?" && !nonCapturing) return undefined;
      out += nonCapturing ? "(?:" : "(";
      index += nonCapturing ? 3 : 1;
      groups.push(false);
      previous = "start";
    } else if (char === ")") {
      out += char;
      index += 1;
      if (groups.pop()) choicePoints += 1;
      previous = "group";
    } else if (char === "|") {
      out += char;
      index += 1;
      if (groups.length > 0) groups[groups.length - 1] = true;
      else {
        mostChoicePoints = Math.max(mostChoicePoints, choicePoints);
        choicePoints = 0;
      }
      previous = "start";
    } else if (char === "*" || char === "+") {
      out += char;
      index += 1;
      previous = quantifier(true);
    } else if (char === "?") {
      out += char;
      index += 1;
      // After a quantifier it only makes it lazy.
      if (previous !== "quantifier") previous = quantifier(true);
    } else if (char === "{") {
      const counted = COUNTED_REPETITION.exec(pattern.slice(index));
      if (!counted) return undefined;
      out += counted[0];
      index += counted[0].length;
      const low = Number(counted[1]);
      const high =
        counted[2] === undefined ? low : counted[2] === "" ? Number.POSITIVE_INFINITY : Number(counted[2]);
      previous = quantifier(high > low);
    } else if (char === "]" || char === "}" || char === "\n") {
      return undefined;
    } else if (char === ".") {
      out += "[^\\n]";
      index += 1;
      previous = "atom";
    } else {
      const codePoint = String.fromCodePoint(pattern.codePointAt(index)!);
      out += codePoint;
      index += codePoint.length;
      previous = "atom";
    }
  }
  return { source: out, choicePoints: Math.max(mostChoicePoints, choicePoints), repeatsGroup };
}

/** One `\x` escape at `index`, inside a class or not. */
function translateEscape(
  pattern: string,
  index: number,
  inClass: boolean,
): { text: string; end: number } | undefined {
  const next = pattern[index + 1];
  if (next === undefined) return undefined;
  const end = index + 2;
  switch (next) {
    case "d":
      return { text: inClass ? DIGIT : `[${DIGIT}]`, end };
    case "w":
      return { text: inClass ? WORD : `[${WORD}]`, end };
    case "s":
      return { text: inClass ? SPACE : `[${SPACE}]`, end };
    // Negated classes inside a class would need set subtraction: left to ripgrep.
    case "D":
      return inClass ? undefined : { text: `[^${DIGIT}]`, end };
    case "W":
      return inClass ? undefined : { text: `[^${WORD}]`, end };
    case "S":
      return inClass ? undefined : { text: `[^${SPACE}]`, end };
    case "b":
      return inClass ? undefined : { text: WORD_BOUNDARY, end };
    case "B":
      return inClass ? undefined : { text: NOT_WORD_BOUNDARY, end };
    case "x":
      return translateHexEscape(pattern, index);
  }
  if (SIMPLE_ESCAPES.has(next)) return { text: `\\${next}`, end };
  if (ASCII_PUNCTUATION.test(next)) {
    if (JS_ESCAPABLE.has(next) || (inClass && next === "-")) return { text: `\\${next}`, end };
    return { text: next, end };
  }
  return undefined;
}

/** `\xHH` or `\x{H…}`. */
function translateHexEscape(pattern: string, index: number): { text: string; end: number } | undefined {
  const braced = /^\\x\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(index));
  if (braced) {
    const codePoint = Number.parseInt(braced[1]!, 16);
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint === 0x0a) {
      return undefined;
    }
    return { text: `\\u{${braced[1]}}`, end: index + braced[0].length };
  }
  const short = /^\\x([0-9A-Fa-f]{2})/.exec(pattern.slice(index));
  if (!short || Number.parseInt(short[1]!, 16) === 0x0a) return undefined;
  return { text: short[0], end: index + 4 };
}

/** A `[...]` class at `index`, without nesting, POSIX classes or set operations. */
function translateClass(pattern: string, index: number): { text: string; end: number } | undefined {
  let out = "[";
  let position = index + 1;
  if (pattern[position] === "^") {
    out += "^";
    position += 1;
  }
  // Rust reads a `]` here as a literal; JavaScript as the end of an empty class.
  if (pattern[position] === "]") return undefined;
  while (position < pattern.length) {
    const char = pattern[position]!;
    if (char === "]") return { text: `${out}]`, end: position + 1 };
    if (char === "[" || char === "\n") return undefined;
    const pair = pattern.slice(position, position + 2);
    if (pair === "&&" || pair === "--" || pair === "~~") return undefined;
    if (char === "\\") {
      const escaped = translateEscape(pattern, position, true);
      if (escaped === undefined) return undefined;
      out += escaped.text;
      position = escaped.end;
      continue;
    }
    const codePoint = String.fromCodePoint(pattern.codePointAt(position)!);
    out += codePoint;
    position += codePoint.length;
  }
  return undefined;
}
