import { basename, dirname } from "node:path";
import { parse, stringify } from "smol-toml";
import { ConfigError } from "../base/config-error.js";
import { writeFileAtomic } from "../base/write-file-atomic.js";
import { isSecretKeyPath } from "../display/redact-secrets.js";
import {
  cloneData,
  dataEquals,
  getAtPath,
  joinKeyPath,
  type PlainObject,
  setAtPath,
  splitKeyPath,
} from "../key-paths/key-path.js";
import { GLOBAL_ONLY_KEYS } from "../layers/global-only-keys.js";
import { NOT_YET_READ_KEYS, notYetReadMessage, removedKeyOf } from "../layers/unused-keys.js";
import { configSchema, ONE_SHOT } from "../schema/config-schema.js";
import { findUnknownKeys } from "../schema/find-unknown-keys.js";
import { describeIssue, formatIssueLine } from "../schema/format-schema-issue.js";
import { parseConfigValue, parseTomlDocument } from "../toml/parse-toml-document.js";
import { editTomlText } from "./edit-toml-text.js";
import { readExisting } from "./read-existing-config.js";
import { withConfigFileLock } from "./with-config-file-lock.js";

export interface SetConfigValueOptions {
  /**
   * Which layer the file is, for the global-only check. Default: `project` for
   * `.nyzhi/config.toml`, `local` for `.nyzhi/config.local.toml`, else `global`.
   */
  layer?: "global" | "project" | "local";
}

export interface SetConfigValueResult {
  file: string;
  keyPath: string;
  /** The value written (the raw text read as a TOML literal, else as a string). */
  value: unknown;
  /** The value before, undefined when the key was not set. */
  previous: unknown;
  /** False when the file had to be re-serialised, which drops its comments. */
  preservedComments: boolean;
  /** Set when nothing reads the key yet (NOT_YET_READ_KEYS): the line to show the user. */
  warning?: string;
}

function inferLayer(file: string): "global" | "project" | "local" {
  if (basename(dirname(file)) !== ".nyzhi") return "global";
  return basename(file) === "config.local.toml" ? "local" : "project";
}

/** Rejects the write unless the whole resulting document is valid; names the key on failure. */
function checkDocument(file: string, keyPath: string, before: PlainObject, after: PlainObject): void {
  const known = new Set(findUnknownKeys(configSchema, before).map((unknown) => unknown.path.join(".")));
  const added = findUnknownKeys(configSchema, after).filter((unknown) => !known.has(unknown.path.join(".")));
  const unknown = added[0];
  if (unknown) {
    const hint = unknown.suggestion ? ` (did you mean ${unknown.suggestion}?)` : "";
    throw new ConfigError("config_unknown_key", `${file}: unknown key ${joinKeyPath(unknown.path)}${hint}`, {
      file,
      keyPath: joinKeyPath(unknown.path),
    });
  }
  const result = configSchema.safeParse(after, ONE_SHOT);
  if (result.success) return;
  const described = result.error.issues.map((issue) => describeIssue(issue, after));
  const first = described[0];
  throw new ConfigError(
    "config_invalid_value",
    described.map((item) => `${file}: ${formatIssueLine(item)}`).join("\n"),
    { file, keyPath: first ? joinKeyPath(first.path) : keyPath },
  );
}

/**
 * `nyz config set KEY VALUE`: sets one key in one config file. `rawValue` is read as a TOML
 * literal when it parses as one (`5`, `true`, `["a"]`), else taken as a string. The resulting
 * file must be valid (else ConfigError naming the key and the allowed values, file untouched).
 * The TOML text is edited in place so other keys and comments survive; when an in-place edit
 * cannot express the change, the file is re-serialised (`preservedComments: false`). The write
 * is atomic and keeps the file's permissions; the read-modify-write holds the file's lock, so
 * concurrent `nyz config set` runs all land.
 */
export async function setConfigValue(
  file: string,
  keyPath: string,
  rawValue: string,
  options: SetConfigValueOptions = {},
): Promise<SetConfigValueResult> {
  const path = splitKeyPath(keyPath);
  const canonical = path.join(".");
  if (path.length === 0) throw new ConfigError("config_unknown_key", `${file}: empty key path`, { file });
  if (removedKeyOf(canonical) !== undefined) {
    throw new ConfigError(
      "config_unknown_key",
      `${file}: ${canonical} is not used by nyzhi (the setting was removed); nothing was written`,
      { file, keyPath: canonical },
    );
  }
  const layer = options.layer ?? inferLayer(file);
  const globalOnly = GLOBAL_ONLY_KEYS.find(
    (key) => key === canonical || key.startsWith(`${canonical}.`) || canonical.startsWith(`${key}.`),
  );
  if (layer !== "global" && globalOnly) {
    throw new ConfigError(
      "config_global_only",
      `${file}: ${globalOnly} can only be set in the global config file (use --global)`,
      { file, keyPath: globalOnly },
    );
  }

  const result = await withConfigFileLock(file, () => writeValue(file, path, parseConfigValue(rawValue)));
  const unread = NOT_YET_READ_KEYS.find(({ key }) => canonical === key || canonical.startsWith(`${key}.`));
  return unread
    ? { ...result, warning: `warning: ${notYetReadMessage([canonical], unread.takesEffect)}` }
    : result;
}

/** The read-modify-write of `setConfigValue`, run while holding the file's lock. */
async function writeValue(file: string, path: string[], value: unknown): Promise<SetConfigValueResult> {
  const canonical = path.join(".");
  const { text, mode } = await readExisting(file);
  const document = parseTomlDocument(text, file);
  const intended = cloneData(document);
  setAtPath(intended, path, value);
  checkDocument(file, canonical, document, intended);

  let output = editTomlText(text, path, value);
  let preservedComments = true;
  if (!editMatches(output, intended)) {
    output = stringify(intended);
    preservedComments = false;
  }
  // A file that now holds a secret is readable by its owner only.
  const secretMode = isSecretKeyPath(canonical) ? 0o600 : undefined;
  const fileMode = secretMode ?? mode;
  await writeFileAtomic(file, output, fileMode === undefined ? {} : { mode: fileMode });
  const previous = getAtPath(document, path);
  return { file, keyPath: canonical, value, previous, preservedComments };
}

function editMatches(output: string, intended: PlainObject): boolean {
  try {
    return dataEquals(parse(output), intended);
  } catch {
    return false;
  }
}
