/**
 * Glob patterns with gitignore-style semantics, shared by glob, grep's include filter and the
 * ignore files, so the JS walker agrees with ripgrep:
 * `*` and `?` stay inside one path segment, `**` crosses segments, `[abc]`/`[!a-z]` are classes,
 * `{a,b}` alternatives. A pattern without `/` matches a name at any depth; with a `/` it is
 * anchored to the directory it is relative to.
 */
export interface GlobMatcher {
  /** Tests a `/`-separated path relative to the pattern's base directory. */
  matches(relativePath: string): boolean;
  /** The pattern ended with `/`: it matches directories only. */
  directoryOnly: boolean;
}

export function compileGlob(pattern: string, options: { caseInsensitive?: boolean } = {}): GlobMatcher {
  let body = pattern;
  const directoryOnly = body.endsWith("/");
  if (directoryOnly) body = body.slice(0, -1);
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  const source = globToRegExpSource(body);
  const regex = new RegExp(
    anchored ? `^${source}$` : `(?:^|/)${source}$`,
    options.caseInsensitive ? "i" : "",
  );
  return { matches: (relativePath) => regex.test(relativePath), directoryOnly };
}

/** Translates one glob to a regular-expression source (no anchors). */
export function globToRegExpSource(glob: string): string {
  let output = "";
  let index = 0;
  let braceDepth = 0;
  while (index < glob.length) {
    const char = glob[index]!;
    if (char === "*") {
      if (glob[index + 1] === "*") {
        const atStart = index === 0 || glob[index - 1] === "/";
        const next = glob[index + 2];
        if (atStart && next === "/") {
          output += "(?:.*/)?";
          index += 3;
          continue;
        }
        if (atStart && next === undefined) {
          output += ".*";
          index += 2;
          continue;
        }
        output += "[^/]*";
        index += 2;
        continue;
      }
      output += "[^/]*";
    } else if (char === "?") {
      output += "[^/]";
    } else if (char === "[") {
      const close = glob.indexOf("]", index + 2);
      if (close === -1) {
        output += "\\[";
      } else {
        let inner = glob.slice(index + 1, close);
        if (inner.startsWith("!")) inner = `^${inner.slice(1)}`;
        output += `[${inner.replaceAll("\\", "\\\\")}]`;
        index = close;
      }
    } else if (char === "{") {
      braceDepth += 1;
      output += "(?:";
    } else if (char === "}" && braceDepth > 0) {
      braceDepth -= 1;
      output += ")";
    } else if (char === "," && braceDepth > 0) {
      output += "|";
    } else if (char === "\\" && index + 1 < glob.length) {
      index += 1;
      output += escapeRegExp(glob[index]!);
    } else {
      output += escapeRegExp(char);
    }
    index += 1;
  }
  return output + ")".repeat(braceDepth);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
