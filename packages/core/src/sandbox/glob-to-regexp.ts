/**
 * A small glob compiler for tool-name and path patterns, so core needs no glob dependency.
 * Supports `*` (within a segment), `**` (any number of segments), `?`, `[abc]` / `[!abc]` and
 * `{a,b}` (nestable). `*` also matches names that start with a dot: a deny pattern `*.pem` must
 * catch `.secret.pem`.
 */
export function globToRegExp(glob: string, options: { caseInsensitive?: boolean } = {}): RegExp {
  return new RegExp(`^${compile(glob)}$`, options.caseInsensitive ? "i" : "");
}

function compile(glob: string): string {
  let out = "";
  let index = 0;
  while (index < glob.length) {
    const char = glob[index]!;
    if (char === "*") {
      if (glob[index + 1] === "*") {
        const atSegmentStart = index === 0 || glob[index - 1] === "/";
        const followedBySlash = glob[index + 2] === "/";
        if (atSegmentStart && followedBySlash) {
          out += "(?:.*/)?";
          index += 3;
          continue;
        }
        out += ".*";
        index += 2;
        continue;
      }
      out += "[^/]*";
    } else if (char === "?") {
      out += "[^/]";
    } else if (char === "[") {
      const close = glob.indexOf("]", index + 2);
      if (close === -1) {
        out += "\\[";
      } else {
        let body = glob.slice(index + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        index = close;
      }
    } else if (char === "{") {
      const close = findClosingBrace(glob, index);
      if (close === -1) {
        out += "\\{";
      } else {
        const alternatives = splitTopLevel(glob.slice(index + 1, close));
        out += `(?:${alternatives.map(compile).join("|")})`;
        index = close;
      }
    } else {
      out += char.replace(/[.+^${}()|\\/]/g, "\\$&");
    }
    index += 1;
  }
  return out;
}

function findClosingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let index = open; index < glob.length; index++) {
    if (glob[index] === "{") depth++;
    else if (glob[index] === "}" && --depth === 0) return index;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (char === "{") depth++;
    else if (char === "}") depth--;
    else if (char === "," && depth === 0) {
      parts.push(body.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
