import { parse, TomlError } from "smol-toml";
import { ConfigError } from "../base/config-error.js";
import { isSecretKeyPath, REDACTED_VALUE } from "../display/redact-secrets.js";
import type { PlainObject } from "../key-paths/key-path.js";

/**
 * Parses a TOML document. A syntax error becomes a ConfigError whose message names
 * `file:line:column`, the parser's reason, and the offending line with a caret:
 *
 *     /p/.nyzhi/config.toml:3:8: invalid TOML: invalid value
 *       3 | mode = = "full"
 *         |        ^
 */
export function parseTomlDocument(text: string, file: string): PlainObject {
  try {
    return parse(text) as PlainObject;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.replace(/^Invalid TOML document:\s*/, "").split("\n\n")[0] ?? error.message;
    const { line, column } = error;
    const message = `${file}:${line}:${column}: invalid TOML: ${reason}\n${renderSourceLine(text, line, column)}`;
    throw new ConfigError("config_invalid_toml", message, { file, line, column }, { cause: error });
  }
}

/** The line `line` of `text` with its number, and a caret under `column` (both 1-based). */
export function renderSourceLine(text: string, line: number, column: number): string {
  const raw = text.split(/\r?\n/)[line - 1] ?? "";
  // A line that assigns a credential is shown with its value masked.
  const assignment = /^(\s*"?([\w.-]+)"?\s*=\s*)(.*)$/.exec(raw);
  const source = assignment && isSecretKeyPath(assignment[2]!) ? `${assignment[1]}${REDACTED_VALUE}` : raw;
  const gutter = String(line);
  const pad = " ".repeat(gutter.length);
  return `  ${gutter} | ${source}\n  ${pad} | ${" ".repeat(Math.max(0, column - 1))}^`;
}

/**
 * Reads a value typed by a user (`nyz config set`, `NYZHI_CONFIG__…`): a TOML literal when it
 * parses as one (`5`, `true`, `["a"]`, `{ x = 1 }`, `"quoted"`), otherwise the text itself.
 */
export function parseConfigValue(raw: string): unknown {
  try {
    const document = parse(`value = ${raw}`);
    const keys = Object.keys(document);
    if (keys.length === 1 && keys[0] === "value") return document.value;
  } catch {
    // Not a TOML literal: the raw text is the value.
  }
  return raw;
}
