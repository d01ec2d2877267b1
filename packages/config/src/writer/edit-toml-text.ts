import { formatTomlKey, formatTomlValue } from "../toml/format-toml-value.js";
import { scanTomlStructure, type TomlEntry, type TomlKeyEntry } from "../toml/scan-toml-structure.js";

function samePath(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((segment, index) => segment === right[index]);
}

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length < path.length && prefix.every((segment, index) => segment === path[index]);
}

function dottedKey(segments: readonly string[]): string {
  return segments.map((segment) => formatTomlKey(segment)).join(".");
}

/** Inserts `line` after 1-based line `after` (0 = at the top). */
function insertLine(text: string, after: number, line: string): string {
  const lines = text.split("\n");
  lines.splice(after, 0, line);
  return lines.join("\n");
}

function appendTable(text: string, tablePath: readonly string[], keyLine: string): string {
  const body = text.length === 0 || text.endsWith("\n") ? text : `${text}\n`;
  const gap = body.trim().length === 0 ? "" : "\n";
  return `${body}${gap}[${dottedKey(tablePath)}]\n${keyLine}\n`;
}

/**
 * Sets one value by editing the TOML text, leaving every other line (and every comment) as it
 * was: replaces the value of an existing `key = …`, or adds the key to the deepest existing table
 * that contains it, or appends a new table. The result is not checked here; the caller re-parses
 * it and falls back to re-serialising when the edit did not produce the intended document.
 */
export function editTomlText(text: string, path: readonly string[], value: unknown): string {
  const entries = scanTomlStructure(text);
  const rendered = formatTomlValue(value);

  const existing = entries.find(
    (entry): entry is TomlKeyEntry => entry.kind === "key" && samePath(entry.path, path),
  );
  if (existing) return text.slice(0, existing.valueStart) + rendered + text.slice(existing.valueEnd);

  const container = deepestTable(entries, path);
  if (!container) {
    if (path.length > 1) {
      return appendTable(text, path.slice(0, -1), `${dottedKey(path.slice(-1))} = ${rendered}`);
    }
    const rootKeys = entries.filter(
      (entry): entry is TomlKeyEntry => entry.kind === "key" && entry.tablePath.length === 0,
    );
    const last = rootKeys.at(-1);
    return insertLine(text, last ? last.endLine : 0, `${dottedKey(path)} = ${rendered}`);
  }

  const keyLine = `${dottedKey(path.slice(container.path.length))} = ${rendered}`;
  const keysInTable = entries.filter(
    (entry): entry is TomlKeyEntry => entry.kind === "key" && samePath(entry.tablePath, container.path),
  );
  const lastKey = keysInTable.at(-1);
  if (!lastKey) return insertLine(text, container.line, keyLine);
  const indent = /^[ \t]*/.exec(text.split("\n")[lastKey.line - 1] ?? "")?.[0] ?? "";
  return insertLine(text, lastKey.endLine, `${indent}${keyLine}`);
}

function deepestTable(entries: readonly TomlEntry[], path: readonly string[]): TomlEntry | undefined {
  let best: TomlEntry | undefined;
  for (const entry of entries) {
    if (entry.kind === "key" || !isPrefix(entry.path, path)) continue;
    if (!best || entry.path.length > best.path.length) best = entry;
  }
  return best;
}
