import { isPlainObject } from "../key-paths/key-path.js";

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A key as TOML writes it: bare when it can be, else a quoted basic string. */
export function formatTomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : formatTomlString(key);
}

/** A TOML basic string with every character TOML forbids escaped. */
export function formatTomlString(value: string): string {
  let out = '"';
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (character === '"') out += '\\"';
    else if (character === "\\") out += "\\\\";
    else if (character === "\n") out += "\\n";
    else if (character === "\t") out += "\\t";
    else if (character === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += "\\ufffd";
    else out += character;
  }
  return `${out}"`;
}

/**
 * One value as inline TOML (`"full"`, `5`, `["a", "b"]`, `{ command = "npx" }`), for messages,
 * `describeOrigins` and text edits.
 */
export function formatTomlValue(value: unknown): string {
  if (typeof value === "string") return formatTomlString(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "nan";
    if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
    return String(value);
  }
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatTomlValue(item)).join(", ")}]`;
  if (isPlainObject(value)) {
    const fields = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${formatTomlKey(key)} = ${formatTomlValue(item)}`);
    return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
  }
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return "(nothing)";
  return String(value);
}
