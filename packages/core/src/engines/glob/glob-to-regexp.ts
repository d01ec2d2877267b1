import picomatch from "picomatch";

export interface GlobOptions {
  /** Match letters in either case (tool names). Default false. */
  caseInsensitive?: boolean;
  /**
   * Read the pattern as ripgrep's `--glob` and `.gitignore` do: without a `/` it matches a name
   * at any depth (`*.ts` matches `a/b/c.ts`); a leading `/` anchors it to the base directory.
   * Default false: the pattern must match the whole string.
   */
  anyDepth?: boolean;
}

/**
 * picomatch as every glob in core reads it: `*` also matches names that start with a dot (a deny
 * pattern `*.pem` must catch `.secret.pem`); a leading `!` is a literal, not a negation (a deny
 * pattern `!x` must not deny everything else); no extglobs; `[!a]` is negated like `[^a]` (picomatch
 * does that only with `posix`); `/` is the only separator on every platform (callers pass
 * `/`-separated paths, and `\` stays an escape).
 */
const PICOMATCH_OPTIONS = { dot: true, nonegate: true, noextglob: true, posix: true, windows: false };

/**
 * The one glob compiler of core (tool names, `deny_paths`/`allow_paths`, hook filters, the glob
 * tool, grep's include, command environment names), on picomatch: `*` and `?` stay within one
 * path segment, `**` spans segments (`src/**` matches `src` too), `[abc]`/`[!a-z]` are classes,
 * `{a,b}` alternatives (nestable), `\` escapes. `(`, `)` and `|` are literals, as in a shell glob,
 * although picomatch would read them as a regex group. A pattern picomatch cannot parse (an
 * unclosed `{`) matches itself literally, never nothing: a broken deny rule still denies its name.
 */
export function globToRegExp(glob: string, options: GlobOptions = {}): RegExp {
  let pattern = glob;
  if (options.anyDepth) pattern = pattern.includes("/") ? pattern.replace(/^\/+/, "") : `**/${pattern}`;
  const regexp = picomatch.makeRe(escapeGroups(pattern), {
    ...PICOMATCH_OPTIONS,
    nocase: options.caseInsensitive === true,
  });
  // picomatch's answer to a pattern it cannot parse is the never-matching `/$^/`.
  if (regexp.source !== "$^") return regexp;
  return new RegExp(
    `^${pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`,
    options.caseInsensitive ? "i" : "",
  );
}

/** Escapes `(`, `)` and `|` outside brackets and escapes, so picomatch reads them as characters. */
function escapeGroups(pattern: string): string {
  let out = "";
  let inBracket = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "\\" && index + 1 < pattern.length) {
      out += char + pattern[index + 1];
      index += 1;
    } else if (inBracket) {
      out += char;
      if (char === "]") inBracket = false;
    } else if (char === "[" && pattern.indexOf("]", index + 2) !== -1) {
      inBracket = true;
      out += char;
    } else {
      out += char === "(" || char === ")" || char === "|" ? `\\${char}` : char;
    }
  }
  return out;
}
