import { stringify } from "smol-toml";
import { ConfigError } from "../base/config-error.js";
import { writeFileAtomic } from "../base/write-file-atomic.js";
import {
  cloneData,
  deleteAtPath,
  getAtPath,
  isPlainObject,
  type PlainObject,
  setAtPath,
} from "../key-paths/key-path.js";
import { configSchema, ONE_SHOT } from "../schema/config-schema.js";
import { formatTomlKey, formatTomlValue } from "../toml/format-toml-value.js";
import { parseTomlDocument } from "../toml/parse-toml-document.js";
import { scanTomlStructure } from "../toml/scan-toml-structure.js";
import { readExisting } from "./read-existing-config.js";
import { sameTomlData } from "./same-toml-data.js";
import { withConfigFileLock } from "./with-config-file-lock.js";

/** A server entry as `nyz mcp add` writes it: stdio or HTTP, only the keys that were given. */
export type McpServerEntryInput =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> };

export interface McpServerTableResult {
  file: string;
  /** False when the file had to be re-serialised (its comments were lost). */
  preservedComments: boolean;
}

const serverPath = (name: string) => ["mcp", "servers", name];

/**
 * Adds `[mcp.servers.<name>]` to a config file (`nyz mcp add`), appending the table so every other
 * line and comment stays as it was. Refuses when the name exists (ConfigError
 * `config_mcp_server_exists`) or the file does not parse (the parse error, file untouched — never
 * replaced by defaults). The result must validate; the write is atomic and keeps the file's mode,
 * and the read-modify-write holds the file's lock (`withConfigFileLock`).
 */
export async function addMcpServerTable(
  file: string,
  name: string,
  entry: McpServerEntryInput,
): Promise<McpServerTableResult> {
  return withConfigFileLock(file, () => addServer(file, name, entry));
}

async function addServer(
  file: string,
  name: string,
  entry: McpServerEntryInput,
): Promise<McpServerTableResult> {
  const { text, mode } = await readExisting(file);
  const document = parseTomlDocument(text, file);
  if (getAtPath(document, serverPath(name)) !== undefined) {
    throw new ConfigError(
      "config_mcp_server_exists",
      `${file}: MCP server '${name}' already exists (remove it first with \`nyz mcp remove ${name}\`)`,
      { file, keyPath: `mcp.servers.${name}` },
    );
  }
  const intended = cloneData(document);
  setAtPath(intended, serverPath(name), cloneData(entry) as PlainObject);
  const checked = configSchema.safeParse(intended, ONE_SHOT);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ConfigError(
      "config_invalid_value",
      `${file}: mcp.servers.${name}: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`,
      { file, keyPath: `mcp.servers.${name}` },
    );
  }
  const lines = [`[mcp.servers.${formatTomlKey(name)}]`];
  for (const [key, value] of Object.entries(entry)) {
    if (value === undefined) continue;
    if (isPlainObject(value) && Object.keys(value).length === 0) continue;
    lines.push(`${formatTomlKey(key)} = ${formatTomlValue(value)}`);
  }
  const body = text.length === 0 || text.endsWith("\n") ? text : `${text}\n`;
  const gap = body.trim().length === 0 ? "" : "\n";
  return writeChecked(file, `${body}${gap}${lines.join("\n")}\n`, intended, mode);
}

/**
 * Removes `mcp.servers.<name>` from a config file (`nyz mcp remove`): the table and its sub-tables
 * are cut out, other lines kept. Returns undefined when the file has no such server (or no file).
 * An unparsable file is a ConfigError and is left untouched.
 */
export async function removeMcpServerTable(
  file: string,
  name: string,
): Promise<McpServerTableResult | undefined> {
  return withConfigFileLock(file, () => removeServer(file, name));
}

async function removeServer(file: string, name: string): Promise<McpServerTableResult | undefined> {
  const { text, mode } = await readExisting(file);
  const document = parseTomlDocument(text, file);
  if (getAtPath(document, serverPath(name)) === undefined) return undefined;
  const intended = cloneData(document);
  deleteAtPath(intended, serverPath(name));
  return writeChecked(file, cutServer(text, name), intended, mode);
}

/** Cuts the server's lines: its table headers with their keys, or its keys under `[mcp.servers]`/`[mcp]`. */
function cutServer(text: string, name: string): string {
  const path = serverPath(name);
  const within = (entryPath: readonly string[]) =>
    path.every((segment, index) => entryPath[index] === segment);
  const entries = scanTomlStructure(text);
  const lines = text.split("\n");
  const drop = new Set<number>();
  let inServerTable = false;
  for (const entry of entries) {
    if (entry.kind !== "key") {
      inServerTable = within(entry.path);
      if (inServerTable) drop.add(entry.line);
      continue;
    }
    if (inServerTable || within(entry.path)) {
      for (let line = entry.line; line <= entry.endLine; line++) drop.add(line);
    }
  }
  const kept = lines.filter((_line, index) => !drop.has(index + 1));
  const joined = kept.join("\n").replace(/\n{3,}/g, "\n\n");
  return joined.trim() === "" ? "" : joined.replace(/\n+$/, "\n");
}

async function writeChecked(
  file: string,
  edited: string,
  intended: PlainObject,
  mode: number | undefined,
): Promise<McpServerTableResult> {
  let output = edited;
  let preservedComments = true;
  let matches = false;
  try {
    matches = sameTomlData(edited, intended);
  } catch {
    matches = false;
  }
  if (!matches) {
    output = stringify(intended);
    preservedComments = false;
  }
  // Servers carry tokens in headers and env: a config file nyzhi writes them into is private.
  await writeFileAtomic(file, output, { mode: mode === undefined ? 0o600 : mode & 0o700 });
  return { file, preservedComments };
}
