import { compareText, errorMessage, type Logger } from "@nyzhi/config";
import type { Tool } from "../tools/seam/define-tool.js";
import type { McpCallResult } from "./map-mcp-result.js";
import { connectMcpServer, type McpConnection, type McpToolInfo } from "./mcp-connection.js";
import { DEFAULT_MCP_TIMEOUT_MS, describeMcpEndpoint, type McpServerSpec } from "./mcp-server-config.js";
import { mcpTool } from "./mcp-tool-adapter.js";

/** Where a server is in its life. `crashed`: it was connected and the connection dropped. */
export type McpServerState = "connecting" | "connected" | "failed" | "timed-out" | "crashed" | "stopped";

export interface McpServerStatus {
  name: string;
  transport: McpServerSpec["transport"];
  endpoint: string;
  source: McpServerSpec["source"];
  state: McpServerState;
  /** Why it failed, timed out or crashed. */
  error?: string;
  /** Tool names as the server lists them. */
  tools: string[];
  /** How long connecting took (or until it gave up), ms. */
  durationMs?: number;
}

/** Something the user should hear about: a server that failed, timed out, crashed, or changed its tools. */
export interface McpNotice {
  server: string;
  kind: "failed" | "timed-out" | "crashed" | "tools-changed";
  message: string;
}

export interface McpManagerOptions {
  /** Workspace root (stdio servers' default cwd). */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
  onNotice?: (notice: McpNotice) => void;
  /** Per-server timeout when the server sets none, ms. Default 30 000. */
  defaultTimeoutMs?: number;
  /** Debounce for list_changed refreshes, ms. Default 100. */
  listChangedDebounceMs?: number;
}

interface ServerEntry {
  spec: McpServerSpec;
  status: McpServerStatus;
  connection?: McpConnection | undefined;
  stop: AbortController;
  /**
   * The tools the server listed in an earlier session (see `startOne`'s `known`), offered while it
   * connects; dropped once it is connected (its live list wins) or has failed.
   */
  known?: McpToolInfo[] | undefined;
}

/**
 * Runs a set of MCP servers: starts them in parallel, each with its own timeout, so one slow or
 * broken server costs at most its timeout and never stops the others; keeps a status per server;
 * reports failures, timeouts, crashes and tool-list changes through `onNotice`; turns the live
 * tools into registry tools; stops everything at the end.
 */
export class McpManager {
  private readonly servers = new Map<string, ServerEntry>();
  private readonly toolListeners = new Set<() => void>();
  private readonly pending = new Map<string, Promise<McpServerStatus>>();

  constructor(private readonly options: McpManagerOptions) {}

  /** Starts every enabled spec (in parallel); resolves when each is connected, failed or timed out. */
  async start(specs: readonly McpServerSpec[]): Promise<McpServerStatus[]> {
    await Promise.all(specs.filter((spec) => spec.enabled).map((spec) => this.startOne(spec)));
    return this.statuses();
  }

  /**
   * Starts one server (also a disabled one: roles start theirs this way); a server already
   * connected or connecting is not started again (the pending start is shared). Never throws.
   *
   * `known`: the tools the server listed last time (the session's tool cache). They are offered
   * at once, while it connects, so nobody waits for its start: a call to one of them waits for the
   * connection instead. Once connected, the live list replaces them (listeners hear of a change);
   * should the start fail, they are withdrawn.
   */
  startOne(spec: McpServerSpec, known?: readonly McpToolInfo[]): Promise<McpServerStatus> {
    const pending = this.pending.get(spec.name);
    if (pending) return pending;
    const existing = this.servers.get(spec.name);
    if (existing?.status.state === "connected") return Promise.resolve(existing.status);
    const starting = this.connect(spec, known).finally(() => this.pending.delete(spec.name));
    this.pending.set(spec.name, starting);
    return starting;
  }

  /** Resolves once no server is connecting any more (each connected, failed or timed out). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }

  private async connect(spec: McpServerSpec, known?: readonly McpToolInfo[]): Promise<McpServerStatus> {
    const entry: ServerEntry = {
      spec,
      stop: new AbortController(),
      status: {
        name: spec.name,
        transport: spec.transport,
        endpoint: describeMcpEndpoint(spec),
        source: spec.source,
        state: "connecting",
        tools: known ? known.map((tool) => tool.name) : [],
      },
      ...(known ? { known: [...known] } : {}),
    };
    this.servers.set(spec.name, entry);
    const timeoutMs = spec.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    const startedAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const connecting = connectMcpServer(spec, {
      cwd: this.options.cwd,
      env: this.options.env,
      logger: this.options.logger,
      signal: entry.stop.signal,
      listChangedDebounceMs: this.options.listChangedDebounceMs,
      onUnexpectedClose: (why) => this.crashed(entry, why),
      onToolsChanged: (tools) => this.toolsChanged(entry, tools),
    });
    try {
      const outcome = await Promise.race([connecting, timedOut]);
      entry.status.durationMs = Date.now() - startedAt;
      if (outcome === "timeout") {
        entry.stop.abort();
        void connecting.then(
          (late) => late.close(),
          () => undefined,
        );
        this.fail(entry, "timed-out", `did not answer within ${timeoutMs} ms`);
      } else if (entry.stop.signal.aborted) {
        await outcome.close();
      } else {
        const offered = entry.known;
        entry.known = undefined;
        entry.connection = outcome;
        entry.status.state = "connected";
        entry.status.tools = outcome.tools.map((tool) => tool.name);
        this.options.logger?.info(
          { server: spec.name, tools: entry.status.tools.length, transport: outcome.transport },
          "mcp server connected",
        );
        const changed = offered ? !sameTools(offered, outcome.tools) : entry.status.tools.length > 0;
        if (changed) this.emitToolsChanged();
      }
    } catch (error) {
      entry.status.durationMs = Date.now() - startedAt;
      // Stopped while it was starting: that is not a failure worth reporting.
      if (entry.stop.signal.aborted) entry.status.state = "stopped";
      else this.fail(entry, "failed", errorMessage(error));
    } finally {
      clearTimeout(timer);
    }
    return entry.status;
  }

  statuses(): McpServerStatus[] {
    return [...this.servers.values()]
      .map((entry) => ({ ...entry.status, tools: [...entry.status.tools] }))
      .sort((left, right) => compareText(left.name, right.name));
  }

  /** The live connection of a server, if it is connected. */
  connection(name: string): McpConnection | undefined {
    const entry = this.servers.get(name);
    return entry?.status.state === "connected" ? entry.connection : undefined;
  }

  /**
   * Registry tools for the connected servers (all, or only `names`), sorted by name; a server
   * still connecting offers the tools it listed last time (`startOne`'s `known`).
   */
  tools(names?: readonly string[]): Tool[] {
    const tools: Tool[] = [];
    for (const entry of this.servers.values()) {
      if (names && !names.includes(entry.spec.name)) continue;
      const listed =
        this.connection(entry.spec.name)?.tools ??
        (entry.status.state === "connecting" ? entry.known : undefined);
      if (!listed) continue;
      for (const info of listed) {
        tools.push(
          mcpTool({
            server: entry.spec.name,
            kind: entry.spec.transport === "stdio" ? "execute" : "network",
            info,
            call: (server, tool, args, signal) => this.callTool(server, tool, args, signal),
          }),
        );
      }
    }
    return tools.sort((left, right) => compareText(left.name, right.name));
  }

  /**
   * Calls `tool` on `server` (waiting for it when it is still connecting); throws a readable error
   * when the server is not connected.
   */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallResult> {
    const connection = await this.whenConnected(server);
    return (await connection.client.callTool({ name: tool, arguments: args }, undefined, {
      signal,
      timeout: 10 * 60_000,
    })) as McpCallResult;
  }

  /** `requireConnection`, once a server still connecting has connected (or failed). */
  async whenConnected(server: string): Promise<McpConnection> {
    await this.pending.get(server);
    return this.requireConnection(server);
  }

  /** The connected server or an error naming its state (for tools and read_mcp_resource). */
  requireConnection(server: string): McpConnection {
    const entry = this.servers.get(server);
    if (!entry) {
      const known = [...this.servers.keys()].sort().join(", ") || "none";
      throw new Error(`no MCP server named "${server}" (servers: ${known})`);
    }
    if (entry.status.state !== "connected" || !entry.connection) {
      throw new Error(
        `MCP server "${server}" is ${entry.status.state}${entry.status.error ? `: ${entry.status.error}` : ""}`,
      );
    }
    return entry.connection;
  }

  /** Called after the set of tools changes (a server connected, crashed, or sent list_changed). */
  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  /** Stops the named servers (default all) and waits for them to close. */
  async stop(names?: readonly string[]): Promise<void> {
    const entries = [...this.servers.values()].filter((entry) => !names || names.includes(entry.spec.name));
    await Promise.all(
      entries.map(async (entry) => {
        entry.stop.abort();
        const connection = entry.connection;
        entry.connection = undefined;
        if (entry.status.state === "connected" || entry.status.state === "connecting") {
          entry.status.state = "stopped";
        }
        await connection?.close();
      }),
    );
  }

  private fail(entry: ServerEntry, state: "failed" | "timed-out", why: string): void {
    entry.status.state = state;
    entry.status.error = why;
    // Tools offered from an earlier session's list are withdrawn.
    if (entry.known) {
      entry.known = undefined;
      entry.status.tools = [];
      this.emitToolsChanged();
    }
    const message = `MCP server "${entry.spec.name}" ${state === "failed" ? "failed to start" : "timed out"}: ${why}`;
    this.options.logger?.warn({ server: entry.spec.name }, message);
    this.options.onNotice?.({ server: entry.spec.name, kind: state, message });
  }

  private crashed(entry: ServerEntry, why: string): void {
    if (entry.status.state !== "connected") return;
    entry.status.state = "crashed";
    entry.status.error = why;
    const tail = entry.connection?.stderrTail();
    entry.connection = undefined;
    const message = `MCP server "${entry.spec.name}" stopped unexpectedly (${why}); its tools are unavailable for the rest of the session`;
    this.options.logger?.warn({ server: entry.spec.name, stderr: tail }, message);
    this.options.onNotice?.({ server: entry.spec.name, kind: "crashed", message });
    this.emitToolsChanged();
  }

  private toolsChanged(entry: ServerEntry, tools: McpToolInfo[]): void {
    if (entry.status.state !== "connected") return;
    entry.status.tools = tools.map((tool) => tool.name);
    this.options.onNotice?.({
      server: entry.spec.name,
      kind: "tools-changed",
      message: `MCP server "${entry.spec.name}" now lists ${tools.length} tool(s)`,
    });
    this.emitToolsChanged();
  }

  private emitToolsChanged(): void {
    for (const listener of this.toolListeners) {
      try {
        listener();
      } catch (error) {
        this.options.logger?.warn({ err: error }, "mcp tools listener failed");
      }
    }
  }
}

/** Whether two tool lists say the same to the model (names, descriptions, schemas, hints, in order). */
function sameTools(left: readonly McpToolInfo[], right: readonly McpToolInfo[]): boolean {
  return JSON.stringify(left.map(toolShape)) === JSON.stringify(right.map(toolShape));
}

function toolShape(tool: McpToolInfo): unknown[] {
  return [tool.name, tool.description, tool.inputSchema, tool.annotations];
}
