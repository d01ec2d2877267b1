import type { z } from "zod";
import { ConfigError, type ConfigWarning } from "../base/config-error.js";
import {
  cloneData,
  deleteAtPath,
  getAtPath,
  isPlainObject,
  joinKeyPath,
  type PlainObject,
  setAtPath,
  splitKeyPath,
} from "../key-paths/key-path.js";
import { configSchema, ONE_SHOT } from "../schema/config-schema.js";
import { findUnknownKeys } from "../schema/find-unknown-keys.js";
import { describeIssue, formatIssueLine } from "../schema/format-schema-issue.js";
import { locateKeyLine } from "../toml/scan-toml-structure.js";
import { type ConfigLayerInput, sourceForKey } from "./config-origin.js";
import { GLOBAL_ONLY_KEYS } from "./global-only-keys.js";
import {
  keysSetUnder,
  NOT_YET_READ_KEYS,
  notYetReadMessage,
  REMOVED_KEYS,
  removedKeyMessage,
} from "./unused-keys.js";

/** `/p/.nyzhi/config.toml:4` for file layers, `NYZHI_TRUST` for env and flags. */
function locationOf(input: ConfigLayerInput, path: readonly string[]): { label: string; line?: number } {
  const source = sourceForKey(input, path);
  if (input.text === undefined || source !== input.source) return { label: source };
  const line = locateKeyLine(input.text, path);
  return line === undefined ? { label: source } : { label: `${source}:${line}`, line };
}

function warning(
  input: ConfigLayerInput,
  kind: ConfigWarning["kind"],
  path: string[],
  text: (keyPath: string) => string,
): ConfigWarning {
  const keyPath = joinKeyPath(path);
  const location = locationOf(input, path);
  const result: ConfigWarning = {
    kind,
    source: sourceForKey(input, path),
    keyPath,
    message: `warning: ${location.label}: ${text(keyPath)}`,
  };
  if (location.line !== undefined) result.line = location.line;
  return result;
}

/** `agent.subagent_model` (spec §1.3) now lives at `agent.agents.subagent_model`. */
function moveDeprecatedKeys(input: ConfigLayerInput, data: PlainObject, warnings: ConfigWarning[]): void {
  const old = ["agent", "subagent_model"];
  const value = getAtPath(data, old);
  if (value === undefined || !isPlainObject(data.agent)) return;
  warnings.push(
    warning(
      input,
      "deprecated-key",
      old,
      () => "agent.subagent_model is deprecated; use agent.agents.subagent_model",
    ),
  );
  const replacement = ["agent", "agents", "subagent_model"];
  const agents = getAtPath(data, ["agent", "agents"]);
  if (getAtPath(data, replacement) === undefined && (agents === undefined || isPlainObject(agents))) {
    setAtPath(data, replacement, value);
  }
  deleteAtPath(data, old);
}

/** Removes every key nyzhi no longer has (REMOVED_KEYS), with one warning per removed key naming what was set. */
function dropRemovedKeys(input: ConfigLayerInput, data: PlainObject, warnings: ConfigWarning[]): void {
  for (const removed of REMOVED_KEYS) {
    const keyPaths = keysSetUnder(data, removed, { emptyTables: true });
    const first = keyPaths[0];
    if (first === undefined) continue;
    const found = warning(input, "removed-key", splitKeyPath(first), () => removedKeyMessage(keyPaths));
    warnings.push(keyPaths.length > 1 ? { ...found, keyPaths } : found);
    deleteAtPath(data, splitKeyPath(removed));
  }
}

/** Warns, once per section, about the keys set in a section nothing reads yet (NOT_YET_READ_KEYS). */
function warnNotYetRead(input: ConfigLayerInput, data: PlainObject, warnings: ConfigWarning[]): void {
  for (const { key, takesEffect } of NOT_YET_READ_KEYS) {
    const keyPaths = keysSetUnder(data, key, { emptyTables: false });
    const first = keyPaths[0];
    if (first === undefined) continue;
    const message = () => notYetReadMessage(keyPaths, takesEffect);
    const found = warning(input, "not-yet-read", splitKeyPath(first), message);
    warnings.push(keyPaths.length > 1 ? { ...found, keyPaths } : found);
  }
}

/**
 * Checks one layer against the schema and returns the cleaned table to merge: unknown keys,
 * removed keys and global-only keys outside the global file are removed (each with a warning),
 * keys nothing reads yet are kept with a warning, and values keep their raw form so the merge can
 * tell which keys were set. Throws ConfigError on a wrong type or value.
 */
export function validateLayer(input: ConfigLayerInput): { data: PlainObject; warnings: ConfigWarning[] } {
  const data = cloneData(input.data);
  const warnings: ConfigWarning[] = [];
  moveDeprecatedKeys(input, data, warnings);
  dropRemovedKeys(input, data, warnings);

  for (const unknown of findUnknownKeys(configSchema, data)) {
    const hint = unknown.suggestion ? ` (did you mean ${unknown.suggestion}?)` : "";
    warnings.push(warning(input, "unknown-key", unknown.path, (keyPath) => `unknown key ${keyPath}${hint}`));
    deleteAtPath(data, unknown.path);
  }

  if (input.layer !== "global") {
    for (const keyPath of GLOBAL_ONLY_KEYS) {
      const path = splitKeyPath(keyPath);
      if (getAtPath(data, path) === undefined) continue;
      warnings.push(
        warning(
          input,
          "global-only",
          path,
          () => `${keyPath} is only read from the global config file; the ${input.layer} value is ignored`,
        ),
      );
      deleteAtPath(data, path);
    }
  }

  const result = configSchema.safeParse(data, ONE_SHOT);
  if (!result.success) throw schemaError(input, data, result.error.issues);
  warnNotYetRead(input, data, warnings);
  return { data, warnings };
}

function schemaError(
  input: ConfigLayerInput,
  data: PlainObject,
  issues: readonly z.core.$ZodIssue[],
): ConfigError {
  const described = issues.map((issue) => describeIssue(issue, data));
  const lines = described.map((item) => `${locationOf(input, item.path).label}: ${formatIssueLine(item)}`);
  const first = described[0];
  const path = first?.path ?? [];
  const location = locationOf(input, path);
  return new ConfigError("config_invalid_value", lines.join("\n"), {
    file: sourceForKey(input, path),
    line: location.line,
    keyPath: joinKeyPath(path),
  });
}
