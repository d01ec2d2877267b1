import { isAbsolute, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { errorMessage, fetchWithProxy, type Logger } from "@nyzhi/config";
import { NYZHI_CLIENT_INFO } from "./mcp-client-info.js";
import type { HttpMcpServerSpec, McpServerSpec, StdioMcpServerSpec } from "./mcp-server-config.js";

/** A tool as a server lists it (the part nyzhi uses). */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** A live connection to one server. */
export interface McpConnection {
  spec: McpServerSpec;
  client: Client;
  /** The tools the server lists now (refreshed on `tools/list_changed`). */
  tools: McpToolInfo[];
  /** The transport that worked: `stdio`, `http` (Streamable HTTP) or `sse` (the legacy fallback). */
  transport: "stdio" | "http" | "sse";
  /** The last lines the server wrote to stderr (stdio), to explain a crash. */
  stderrTail(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Workspace root: a relative stdio `cwd` resolves against it, and it is the default cwd. */
  cwd: string;
  /** The environment stdio servers inherit the safe part of (PATH, HOME …) under their own `env`. */
  env: Readonly<Record<string, string | undefined>>;
  logger?: Logger | undefined;
  /** The connection closed without `close()` being called (the process died, the stream ended). */
  onUnexpectedClose?: (why: string) => void;
  /** The server's tool list changed and was re-read. */
  onToolsChanged?: (tools: McpToolInfo[]) => void;
  /** Debounce for list_changed notifications, ms. Default 100. */
  listChangedDebounceMs?: number | undefined;
  /** Aborting gives up: the connection (and a stdio server's process) is closed. */
  signal?: AbortSignal | undefined;
}

const STDERR_TAIL_LINES = 20;

/**
 * Connects to one server and lists its tools. The SDK is imported here, lazily, so commands that
 * never reach an MCP server do not load it. Throws when the connection or the listing fails; the
 * caller (McpManager) applies the timeout and turns failures into notices.
 */
export async function connectMcpServer(spec: McpServerSpec, options: ConnectOptions): Promise<McpConnection> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  let closing = false;
  let tools: McpToolInfo[] = [];
  const tail: string[] = [];
  const makeClient = () =>
    new Client(NYZHI_CLIENT_INFO, {
      capabilities: {},
      listChanged: {
        tools: {
          debounceMs: options.listChangedDebounceMs ?? 100,
          onChanged: (error, items) => {
            if (error) {
              options.logger?.warn(
                { server: spec.name, err: error },
                "mcp tools/list_changed refresh failed",
              );
              return;
            }
            if (!items) return;
            tools = items as McpToolInfo[];
            options.onToolsChanged?.(tools);
          },
        },
      },
    });

  let client = makeClient();
  options.signal?.addEventListener(
    "abort",
    () => {
      closing = true;
      client.close().catch(() => undefined);
    },
    { once: true },
  );
  let transportName: McpConnection["transport"];
  if (spec.transport === "stdio") {
    try {
      const transport = await stdioTransport(spec, options, tail);
      // Remember the child's pid when it starts: the SDK forgets it as soon as close() begins.
      let spawnedPid: number | undefined;
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        spawnedPid = (transport as { pid?: number | null }).pid ?? undefined;
      };
      // A server that is given up on (timeout, session end) while it starts must not outlive us:
      // close its transport (which kills the child) even if `initialize` never completes.
      const closeTransport = () => {
        // The SDK's close waits (unref'd) before it signals the child, so a process exiting right
        // after would orphan it: a server we gave up on is stopped at once.
        const pid = spawnedPid;
        if (pid) {
          try {
            process.kill(pid, "SIGTERM");
          } catch {
            // Already gone.
          }
        }
        void transport.close().catch(() => undefined);
      };
      if (options.signal?.aborted) throw new Error("cancelled before the server started");
      options.signal?.addEventListener("abort", closeTransport, { once: true });
      await client.connect(transport);
      // Connected: from now on it closes gracefully (stdin end, then signals) like any server.
      options.signal?.removeEventListener("abort", closeTransport);
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const last = tail.at(-1);
      throw new Error(`${errorMessage(error)}${last ? `; stderr: ${last}` : ""}`, { cause: error });
    }
    transportName = "stdio";
  } else {
    transportName = await connectHttp(
      spec,
      () => client,
      () => {
        client = makeClient();
        return client;
      },
    );
  }
  client.onclose = () => {
    if (closing) return;
    const last = tail.at(-1);
    options.onUnexpectedClose?.(last ? `connection closed; last stderr: ${last}` : "connection closed");
  };
  client.onerror = (error) => options.logger?.debug({ server: spec.name, err: error }, "mcp transport error");
  try {
    tools = await listAllTools(client);
  } catch (error) {
    // A server we cannot use must not keep running.
    closing = true;
    await client.close().catch(() => undefined);
    throw error;
  }
  return {
    spec,
    client,
    transport: transportName,
    get tools() {
      return tools;
    },
    set tools(value) {
      tools = value;
    },
    stderrTail: () => tail.join("\n"),
    async close() {
      closing = true;
      try {
        await client.close();
      } catch (error) {
        options.logger?.debug({ server: spec.name, err: error }, "mcp close failed");
      }
    },
  };
}

async function stdioTransport(
  spec: StdioMcpServerSpec,
  options: ConnectOptions,
  tail: string[],
): Promise<Transport> {
  const { StdioClientTransport, getDefaultEnvironment } = await import(
    "@modelcontextprotocol/sdk/client/stdio.js"
  );
  const inherited = getDefaultEnvironment();
  for (const key of Object.keys(inherited)) {
    const value = options.env[key];
    if (value !== undefined) inherited[key] = value;
    else delete inherited[key];
  }
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: { ...inherited, ...spec.env },
    cwd:
      spec.cwd === undefined ? options.cwd : isAbsolute(spec.cwd) ? spec.cwd : resolve(options.cwd, spec.cwd),
    stderr: "pipe",
  });
  let partial = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      options.logger?.info({ server: spec.name }, `mcp stderr: ${line}`);
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
    }
  });
  return transport;
}

/**
 * Streamable HTTP with the configured headers; the legacy SSE transport when that fails. Both
 * fetch through fetchWithProxy, so `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` apply.
 */
async function connectHttp(
  spec: HttpMcpServerSpec,
  current: () => Client,
  fresh: () => Client,
): Promise<"http" | "sse"> {
  const url = new URL(spec.url);
  const requestInit: RequestInit = { headers: spec.headers };
  let streamableError: unknown;
  if (spec.transport === "http") {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    try {
      await current().connect(new StreamableHTTPClientTransport(url, { requestInit, fetch: fetchWithProxy }));
      return "http";
    } catch (error) {
      streamableError = error;
    }
  }
  const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
  const headers = spec.headers;
  const transport = new SSEClientTransport(url, {
    requestInit,
    fetch: fetchWithProxy,
    eventSourceInit: {
      // The SDK passes a Headers object (Accept, protocol version): merge into it, don't spread it.
      fetch: (input, init) => {
        const merged = new Headers(init?.headers);
        for (const [name, value] of Object.entries(headers)) merged.set(name, value);
        return fetchWithProxy(input, { ...init, headers: merged });
      },
    },
  });
  try {
    await fresh().connect(transport);
    return "sse";
  } catch (error) {
    if (streamableError === undefined) throw error;
    throw new Error(
      `Streamable HTTP failed (${errorMessage(streamableError)}); SSE fallback failed (${errorMessage(error)})`,
    );
  }
}

async function listAllTools(client: Client): Promise<McpToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...(page.tools as McpToolInfo[]));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
