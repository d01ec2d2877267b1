/**
 * A light scan of a TOML document's layout: where each table header and each `key = value`
 * sits, and the exact span of each value. It serves two purposes: pointing an error at the line
 * of a key, and editing one value in place without disturbing comments. It assumes the text has
 * already parsed (smol-toml is the parser of record) and is best-effort on exotic layouts.
 */

export interface TomlTableEntry {
  kind: "table" | "array-table";
  /** Full path; elements of arrays of tables carry their index (`agent.hooks.1`). */
  path: string[];
  /** 1-based. */
  line: number;
}

export interface TomlKeyEntry {
  kind: "key";
  /** Full path: the enclosing table's path plus the (possibly dotted) key. */
  path: string[];
  /** Path of the table the key sits in. */
  tablePath: string[];
  /** 1-based line of the key. */
  line: number;
  /** 1-based line where the value ends (multi-line arrays and strings). */
  endLine: number;
  /** Offset in the whole text where the value starts. */
  valueStart: number;
  /** Offset in the whole text just past the value (before trailing spaces and comments). */
  valueEnd: number;
  /** Offset just past the end of the value's last line (its newline excluded). */
  lineEnd: number;
}

export type TomlEntry = TomlTableEntry | TomlKeyEntry;

class Cursor {
  position = 0;
  line = 1;
  constructor(readonly text: string) {}
  peek(offset = 0): string {
    return this.text[this.position + offset] ?? "";
  }
  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.position);
  }
  advance(count = 1): void {
    for (let index = 0; index < count && this.position < this.text.length; index++) {
      if (this.text[this.position] === "\n") this.line++;
      this.position++;
    }
  }
  skipSpaces(): void {
    while (this.peek() === " " || this.peek() === "\t") this.advance();
  }
  skipToLineEnd(): void {
    while (this.position < this.text.length && this.peek() !== "\n") this.advance();
  }
  atEnd(): boolean {
    return this.position >= this.text.length;
  }
}

function readString(cursor: Cursor): string {
  const quote = cursor.peek();
  const start = cursor.position;
  cursor.advance();
  while (!cursor.atEnd() && cursor.peek() !== quote && cursor.peek() !== "\n") {
    if (quote === '"' && cursor.peek() === "\\") cursor.advance();
    cursor.advance();
  }
  cursor.advance();
  const raw = cursor.text.slice(start, cursor.position);
  if (quote === "'") return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

/** Reads `a.b."c d"` and returns the segments, or undefined when the text is not a key. */
function readKey(cursor: Cursor): string[] | undefined {
  const segments: string[] = [];
  for (;;) {
    cursor.skipSpaces();
    const character = cursor.peek();
    if (character === '"' || character === "'") segments.push(readString(cursor));
    else {
      const start = cursor.position;
      while (/[A-Za-z0-9_-]/.test(cursor.peek())) cursor.advance();
      if (cursor.position === start) return undefined;
      segments.push(cursor.text.slice(start, cursor.position));
    }
    cursor.skipSpaces();
    if (cursor.peek() !== ".") return segments;
    cursor.advance();
  }
}

function skipMultilineString(cursor: Cursor, delimiter: string): void {
  cursor.advance(3);
  while (!cursor.atEnd() && !cursor.startsWith(delimiter)) {
    if (delimiter === '"""' && cursor.peek() === "\\") cursor.advance();
    cursor.advance();
  }
  cursor.advance(3);
  while (cursor.peek() === delimiter[0]) cursor.advance();
}

/** Moves past one value (which may span lines); returns the offset just past its last character. */
function skipValue(cursor: Cursor): number {
  let depth = 0;
  let valueEnd = cursor.position;
  while (!cursor.atEnd()) {
    const character = cursor.peek();
    if (character === "\n") {
      if (depth === 0) break;
      cursor.advance();
    } else if (character === "#") {
      cursor.skipToLineEnd();
    } else if (cursor.startsWith('"""') || cursor.startsWith("'''")) {
      skipMultilineString(cursor, cursor.text.slice(cursor.position, cursor.position + 3));
      valueEnd = cursor.position;
    } else if (character === '"' || character === "'") {
      readString(cursor);
      valueEnd = cursor.position;
    } else {
      if (character === "[" || character === "{") depth++;
      if (character === "]" || character === "}") depth--;
      cursor.advance();
      if (character !== " " && character !== "\t" && character !== "\r") valueEnd = cursor.position;
    }
  }
  return valueEnd;
}

function resolveHeaderPath(segments: string[], arrayCounts: Map<string, number>, isArray: boolean): string[] {
  const resolved: string[] = [];
  segments.forEach((segment, index) => {
    resolved.push(segment);
    const key = resolved.join("\u0000");
    const count = arrayCounts.get(key);
    const last = index === segments.length - 1;
    if (last && isArray) {
      const next = (count ?? 0) + 1;
      arrayCounts.set(key, next);
      resolved.push(String(next - 1));
    } else if (!last && count !== undefined) {
      resolved.push(String(count - 1));
    }
  });
  return resolved;
}

export function scanTomlStructure(text: string): TomlEntry[] {
  const entries: TomlEntry[] = [];
  const cursor = new Cursor(text);
  const arrayCounts = new Map<string, number>();
  let tablePath: string[] = [];
  while (!cursor.atEnd()) {
    cursor.skipSpaces();
    const character = cursor.peek();
    const line = cursor.line;
    if (character === "[") {
      const isArray = cursor.peek(1) === "[";
      cursor.advance(isArray ? 2 : 1);
      const segments = readKey(cursor);
      if (segments) {
        tablePath = resolveHeaderPath(segments, arrayCounts, isArray);
        entries.push({ kind: isArray ? "array-table" : "table", path: tablePath, line });
      }
      cursor.skipToLineEnd();
    } else if (character !== "#" && character !== "\n" && character !== "\r" && !cursor.atEnd()) {
      const segments = readKey(cursor);
      if (segments && cursor.peek() === "=") {
        cursor.advance();
        cursor.skipSpaces();
        const valueStart = cursor.position;
        const valueEnd = skipValue(cursor);
        entries.push({
          kind: "key",
          path: [...tablePath, ...segments],
          tablePath,
          line,
          endLine: cursor.line,
          valueStart,
          valueEnd,
          lineEnd: cursor.position,
        });
      }
    }
    cursor.skipToLineEnd();
    cursor.advance();
  }
  return entries;
}

function startsWithPath(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment);
}

/**
 * The line that best explains `path`: the key's own line, else the line of the deepest table or
 * key that contains it (a missing key points at its table). Undefined when nothing matches.
 */
export function locateKeyLine(text: string, path: readonly (string | number)[]): number | undefined {
  const target = path.map((segment) => String(segment));
  let best: { line: number; depth: number } | undefined;
  for (const entry of scanTomlStructure(text)) {
    if (!startsWithPath(target, entry.path)) continue;
    if (!best || entry.path.length > best.depth) best = { line: entry.line, depth: entry.path.length };
  }
  return best?.line;
}
