import type { Logger, NyzhiConfig } from "@nyzhi/config";
import type { RoleDefinition } from "../roles/role-definition.js";
import type { Tool } from "../tools/seam/define-tool.js";
import {
  type McpManager as Manager,
  McpManager,
  type McpNotice,
  type McpServerStatus,
} from "./mcp-manager.js";
import { loadMcpServers, type McpServerSpec } from "./mcp-server-config.js";
import { mcpToolCache } from "./mcp-tool-cache.js";

/**
 * The MCP servers of one session: the shared ones (started at session start, offered to the lead
 * and, fenced by role, to every subagent) and the role-only ones (servers a role names in
 * `mcp_servers` that are `enabled = false` for the session: started the first time a child of such
 * a role is built, offered only to children of roles that name them).
 */
export interface McpSession {
  manager: Manager;
  /** Role-only servers; never offered to the lead. */
  roleManager: Manager;
  /** Every server definition (enabled or not), by name. */
  servers: readonly McpServerSpec[];
  /**
   * Statuses of the shared servers after start-up (a server whose tools were known from an earlier
   * session may still be `connecting`: it starts in the background).
   */
  statuses: McpServerStatus[];
  /** Lines about `.mcp.json` entries that could not be used. */
  warnings: string[];
  /** Starts (once) the role-only servers `role` names and returns their tools. */
  toolsForRole(role: Pick<RoleDefinition, "mcpServers">): Promise<Tool[]>;
  /** Stops every server (shared and role-only). */
  close(): Promise<void>;
}

export interface StartMcpSessionOptions {
  config: Pick<NyzhiConfig, "mcp">;
  projectRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
  onNotice?: (notice: McpNotice) => void;
  /** Per-server timeout when a server sets none, ms. Default 30 000. */
  defaultTimeoutMs?: number;
  /** Use these instead of reading config and `.mcp.json` (tests, embedders). */
  servers?: readonly McpServerSpec[];
  /**
   * Whether the project is trusted (`LoadedConfig.projectTrusted`): only then are the servers of
   * its `.mcp.json` started. Default false.
   */
  projectTrusted?: boolean;
  /**
   * nyzhi's cache directory: each server's tool list is kept there when it connects, and a server
   * whose list is kept starts in the background instead of being waited for (its kept tools are
   * offered meanwhile; a call to one waits for it). Without it every enabled server is waited for.
   */
  toolCacheDir?: string;
}

/**
 * Loads the server list and starts the enabled servers in parallel (see McpManager). Resolves once
 * every server whose tools are not known from an earlier session (`toolCacheDir`) has connected,
 * failed or timed out; the others go on starting in the background.
 */
export async function startMcpSession(options: StartMcpSessionOptions): Promise<McpSession> {
  const loaded = options.servers
    ? { servers: [...options.servers], warnings: [] }
    : await loadMcpServers(options.config, options.projectRoot, {
        projectTrusted: options.projectTrusted === true,
      });
  const managerOptions = {
    cwd: options.projectRoot,
    env: options.env,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}),
  };
  const manager = new McpManager(managerOptions);
  const roleManager = new McpManager(managerOptions);
  const enabled = loaded.servers.filter((spec) => spec.enabled);
  const cache = options.toolCacheDir ? mcpToolCache(options.toolCacheDir, options.projectRoot) : undefined;
  const known = await Promise.all(enabled.map((spec) => cache?.read(spec)));
  const keep = () => {
    for (const spec of enabled) {
      const connection = manager.connection(spec.name);
      if (connection) void cache?.write(spec, connection.tools);
    }
  };
  if (cache) manager.onToolsChanged(keep);
  const starts = enabled.map((spec, index) =>
    manager.startOne(spec, known[index]).then(async (status) => {
      if (status.state === "connected") keep();
      else if (status.state === "failed" || status.state === "timed-out") await cache?.forget(spec);
      return status;
    }),
  );
  // Only the servers nobody knows the tools of hold up the session.
  await Promise.all(starts.filter((_, index) => known[index] === undefined));
  const statuses = manager.statuses();
  const byName = new Map(loaded.servers.map((spec) => [spec.name, spec]));
  return {
    manager,
    roleManager,
    servers: loaded.servers,
    statuses,
    warnings: loaded.warnings,
    async toolsForRole(role) {
      const own = (role.mcpServers ?? []).filter((name) => byName.get(name)?.enabled === false);
      if (own.length === 0) return [];
      await Promise.all(own.map((name) => roleManager.startOne(byName.get(name)!)));
      return roleManager.tools(own);
    },
    async close() {
      await Promise.all([manager.stop(), roleManager.stop()]);
    },
  };
}
