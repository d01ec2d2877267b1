import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { compareText, errorMessage, type McpServerConfig, type NyzhiConfig } from "@nyzhi/config";

/** Where a server definition came from, for `nyz mcp list` and failure notices. */
export type McpServerSource = "config" | ".mcp.json";

interface McpServerBase {
  name: string;
  /** Milliseconds to connect and list tools before the server is given up on. */
  timeoutMs?: number;
  /** False: not started for the session; a role that names it in `mcp_servers` starts it for itself. */
  enabled: boolean;
  source: McpServerSource;
}

/** A server run as a child process speaking MCP on stdin/stdout. */
export interface StdioMcpServerSpec extends McpServerBase {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/**
 * A server reached over HTTP: Streamable HTTP first, the legacy SSE transport when that fails
 * (`sse` goes straight to SSE, as `.mcp.json` `"type": "sse"` asks).
 */
export interface HttpMcpServerSpec extends McpServerBase {
  transport: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}

export type McpServerSpec = StdioMcpServerSpec | HttpMcpServerSpec;

/** Default time a server gets to connect and list its tools, ms. */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** Turns one `[mcp.servers.<name>]` entry into a spec. */
export function specFromConfig(name: string, entry: McpServerConfig): McpServerSpec {
  const timeout = entry.timeout_ms === undefined ? {} : { timeoutMs: entry.timeout_ms };
  if ("command" in entry) {
    return {
      name,
      transport: "stdio",
      command: entry.command,
      args: [...entry.args],
      env: { ...entry.env },
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
      enabled: entry.enabled,
      source: "config",
      ...timeout,
    };
  }
  return {
    name,
    transport: "http",
    url: entry.url,
    headers: { ...entry.headers },
    enabled: entry.enabled,
    source: "config",
    ...timeout,
  };
}

export interface McpJsonResult {
  servers: McpServerSpec[];
  /** `<file>: …` lines for entries (or a whole file) that could not be used. */
  warnings: string[];
}

/**
 * Reads `<root>/.mcp.json` (Claude Code's format): `mcpServers` (or `mcp_servers`) maps names to
 * `{ command, args?, env?, cwd? }` or `{ url, headers?, type? }`. A missing file is no servers; an
 * unparsable file or entry is a warning, never an exception, so a session still starts.
 */
export async function readMcpJson(root: string): Promise<McpJsonResult> {
  const file = join(root, ".mcp.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], warnings: [] };
    return { servers: [], warnings: [`${file}: cannot read: ${errorMessage(error)}`] };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { servers: [], warnings: [`${file}: invalid JSON: ${errorMessage(error)}`] };
  }
  const map = isRecord(document) ? (document.mcpServers ?? document.mcp_servers) : undefined;
  if (map === undefined) return { servers: [], warnings: [] };
  if (!isRecord(map)) return { servers: [], warnings: [`${file}: mcpServers must be an object`] };
  const servers: McpServerSpec[] = [];
  const warnings: string[] = [];
  for (const [name, entry] of Object.entries(map)) {
    const spec = specFromJson(name, entry);
    if (typeof spec === "string") warnings.push(`${file}: mcpServers.${name}: ${spec}; skipped`);
    else servers.push(spec);
  }
  return { servers, warnings };
}

function specFromJson(name: string, entry: unknown): McpServerSpec | string {
  if (!isRecord(entry)) return "must be an object";
  const base = {
    name,
    enabled: entry.enabled !== false && entry.disabled !== true,
    source: ".mcp.json" as const,
    ...(typeof entry.timeout_ms === "number" ? { timeoutMs: entry.timeout_ms } : {}),
  };
  if (typeof entry.url === "string") {
    return {
      ...base,
      transport: entry.type === "sse" ? "sse" : "http",
      url: entry.url,
      headers: stringMap(entry.headers),
    };
  }
  if (typeof entry.command === "string") {
    return {
      ...base,
      transport: "stdio",
      command: entry.command,
      args: Array.isArray(entry.args) ? entry.args.map(String) : [],
      env: stringMap(entry.env),
      ...(typeof entry.cwd === "string" ? { cwd: entry.cwd } : {}),
    };
  }
  return "needs either url or command";
}

/**
 * Every MCP server of a session: `[mcp.servers]` (already merged global → project → local by the
 * config loader), then `.mcp.json`, which wins on a name clash (as the original did). Sorted by name.
 * `.mcp.json` is read only when `projectTrusted` (`LoadedConfig.projectTrusted`): it comes with
 * the project, and its servers run as commands outside the sandbox.
 */
export async function loadMcpServers(
  config: Pick<NyzhiConfig, "mcp">,
  projectRoot: string,
  options: { projectTrusted: boolean },
): Promise<McpJsonResult> {
  const byName = new Map<string, McpServerSpec>();
  for (const [name, entry] of Object.entries(config.mcp.servers))
    byName.set(name, specFromConfig(name, entry));
  const json = options.projectTrusted ? await readMcpJson(projectRoot) : { servers: [], warnings: [] };
  for (const spec of json.servers) byName.set(spec.name, spec);
  const servers = [...byName.values()].sort((left, right) => compareText(left.name, right.name));
  return { servers, warnings: json.warnings };
}

/** One line describing where a server is: `node server.mjs --flag` or the URL. */
export function describeMcpEndpoint(spec: McpServerSpec): string {
  return spec.transport === "stdio" ? [spec.command, ...spec.args].join(" ") : spec.url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}
