import {
  addMcpServerTable,
  configFilePaths,
  findProjectRoot,
  globalConfigPath,
  isProjectTrusted,
  type LoadedConfig,
  type McpServerEntryInput,
  NyzhiError,
  readConfigFile,
  removeMcpServerTable,
} from "@nyzhi/config";
import { describeMcpEndpoint, loadMcpServers, McpManager, type McpServerSpec } from "@nyzhi/core";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { loadCliConfig } from "./load-cli-config.js";

const SCOPES = ["project", "global", "local"] as const;
type Scope = (typeof SCOPES)[number];

/** Server names become tool-name prefixes (`mcp__<name>__…`), so they keep to safe characters. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Timeout for `nyz mcp list --check` when a server sets none, ms. */
const CHECK_TIMEOUT_MS = 15_000;

export interface McpAddFlags {
  url?: string;
  header?: string[];
  env?: string[];
  scope?: string;
}

function usage(message: string): NyzhiError {
  return new NyzhiError("usage", message);
}

function parseScope(value: string | undefined): Scope {
  if (value === undefined) return "project";
  if ((SCOPES as readonly string[]).includes(value)) return value as Scope;
  throw usage(`--scope must be one of ${SCOPES.join(", ")}, got '${value}'`);
}

function parsePairs(flag: string, values: readonly string[] | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const value of values ?? []) {
    const equals = value.indexOf("=");
    if (equals <= 0) throw usage(`${flag} expects KEY=VALUE, got '${value}'`);
    pairs[value.slice(0, equals).trim()] = value.slice(equals + 1);
  }
  return pairs;
}

function scopeFile(io: CommandIo, scope: Scope): string {
  return configFilePaths(findProjectRoot(io.cwd), io.env)[scope];
}

/** `nyz mcp add <name> (--url U [--header K=V]… | -- command args…) [--scope S] [--env K=V]…`. */
export async function mcpAddCommand(
  io: CommandIo,
  name: string,
  commandWords: readonly string[],
  flags: McpAddFlags,
): Promise<number> {
  if (!SERVER_NAME.test(name)) {
    throw usage(`MCP server names use letters, digits, '-' and '_' (got '${name}')`);
  }
  const scope = parseScope(flags.scope);
  const headers = parsePairs("--header", flags.header);
  const env = parsePairs("--env", flags.env);
  let entry: McpServerEntryInput;
  if (flags.url !== undefined && commandWords.length > 0) {
    throw usage("Give either --url or a command after --, not both");
  } else if (flags.url !== undefined) {
    if (flags.env?.length) throw usage("--env applies to a command (stdio) server, not to --url");
    try {
      new URL(flags.url);
    } catch {
      throw usage(`--url is not a valid URL: '${flags.url}'`);
    }
    entry = { url: flags.url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  } else if (commandWords.length > 0) {
    if (flags.header?.length) throw usage("--header applies to an --url server, not to a command");
    const [command, ...args] = commandWords as [string, ...string[]];
    entry = {
      command,
      ...(args.length > 0 ? { args } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
    };
  } else {
    throw usage(
      "Provide either --url <url> or a command after --, e.g. `nyz mcp add github -- npx -y @modelcontextprotocol/server-github`",
    );
  }
  const file = scopeFile(io, scope);
  await addMcpServerTable(file, name, entry);
  io.stdout(`Added MCP server '${name}' to ${file}\n`);
  if (scope !== "global") await noteUntrustedProject(io);
  return ExitCode.success;
}

/** A project's own servers start only once it is trusted: say so when it is not. */
async function noteUntrustedProject(io: CommandIo): Promise<void> {
  const root = findProjectRoot(io.cwd);
  const global = await readConfigFile(globalConfigPath(io.env), "global");
  if (isProjectTrusted(global?.data, root)) return;
  io.stderr(
    `note: ${root} is not a trusted project: its servers start only after \`nyz trust\` (or with --trust-project)\n`,
  );
}

/** `nyz mcp remove <name> [--scope S]`: without a scope, the first config file (local, project, global) that has it. */
export async function mcpRemoveCommand(
  io: CommandIo,
  name: string,
  flags: { scope?: string },
): Promise<number> {
  const paths = configFilePaths(findProjectRoot(io.cwd), io.env);
  const scopes: Scope[] =
    flags.scope === undefined ? ["local", "project", "global"] : [parseScope(flags.scope)];
  for (const scope of scopes) {
    const removed = await removeMcpServerTable(paths[scope], name);
    if (removed) {
      io.stdout(`Removed MCP server '${name}' from ${removed.file}\n`);
      if (!removed.preservedComments)
        io.stderr(`note: ${removed.file} was rewritten; its comments were lost\n`);
      return ExitCode.success;
    }
  }
  // Only to name the file that defines it: nothing is started.
  const json = await loadMcpServers({ mcp: { servers: {} } }, findProjectRoot(io.cwd), {
    projectTrusted: true,
  });
  if (json.servers.some((spec) => spec.name === name)) {
    io.stderr(`Error: MCP server '${name}' is defined in .mcp.json; edit that file to remove it\n`);
    return ExitCode.failure;
  }
  io.stderr(`Error: MCP server '${name}' not found in ${scopes.map((scope) => paths[scope]).join(", ")}\n`);
  return ExitCode.failure;
}

interface ListedServer {
  name: string;
  transport: McpServerSpec["transport"];
  endpoint: string;
  enabled: boolean;
  /** The config layer (`global`, `project`, `local`) or `.mcp.json`. */
  scope: string;
  status?: string;
  error?: string;
  tools?: string[];
}

function scopeOf(loaded: LoadedConfig, spec: McpServerSpec): string {
  if (spec.source === ".mcp.json") return ".mcp.json";
  const prefix = `mcp.servers.${spec.name}.`;
  const origin = Object.entries(loaded.origins).find(([key]) => key.startsWith(prefix))?.[1];
  return origin?.layer ?? "config";
}

/** `nyz mcp list [--json] [--check]`: every server of the merged config and `.mcp.json`; `--check` connects to each. */
export async function mcpListCommand(
  io: CommandIo,
  globals: GlobalFlags,
  flags: { json?: boolean; check?: boolean },
): Promise<number> {
  const loaded = await loadCliConfig(io, globals);
  const { servers, warnings } = await loadMcpServers(loaded.config, loaded.projectRoot, {
    projectTrusted: loaded.projectTrusted,
  });
  for (const warning of warnings) io.stderr(`warning: ${warning}\n`);
  const listed: ListedServer[] = servers.map((spec) => ({
    name: spec.name,
    transport: spec.transport,
    endpoint: describeMcpEndpoint(spec),
    enabled: spec.enabled,
    scope: scopeOf(loaded, spec),
  }));
  let failed = 0;
  if (flags.check && servers.length > 0) {
    const manager = new McpManager({
      cwd: loaded.projectRoot,
      env: io.env,
      defaultTimeoutMs: CHECK_TIMEOUT_MS,
    });
    try {
      const statuses = await manager.start(servers.map((spec) => ({ ...spec, enabled: true })));
      for (const item of listed) {
        const status = statuses.find((candidate) => candidate.name === item.name);
        if (!status) continue;
        item.status = status.state;
        item.tools = status.tools;
        if (status.error !== undefined) item.error = status.error;
        if (status.state !== "connected") failed++;
      }
    } finally {
      await manager.stop();
    }
  }
  if (flags.json) {
    io.stdout(`${JSON.stringify(listed, null, 2)}\n`);
  } else if (listed.length === 0) {
    io.stdout(
      "No MCP servers configured.\nAdd one with `nyz mcp add <name> -- <command> [args…]` or `nyz mcp add <name> --url <url>`.\n",
    );
  } else {
    io.stdout(`MCP servers (${listed.length}):\n`);
    const width = Math.max(...listed.map((item) => item.name.length));
    for (const item of listed) {
      const flagsText = [item.scope, item.enabled ? "" : "disabled"].filter(Boolean).join(", ");
      io.stdout(
        `  ${item.name.padEnd(width)}  ${item.transport.padEnd(5)}  ${item.endpoint}  (${flagsText})\n`,
      );
      if (item.status === "connected") {
        io.stdout(
          `    connected: ${item.tools!.length} tool(s)${item.tools!.length ? `: ${item.tools!.join(", ")}` : ""}\n`,
        );
      } else if (item.status) {
        io.stdout(`    ${item.status}: ${item.error ?? "unknown error"}\n`);
      }
    }
  }
  return failed > 0 ? ExitCode.failure : ExitCode.success;
}
