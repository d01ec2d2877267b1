import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, getLogger, writeFileAtomic } from "@nyzhi/config";
import type { McpToolInfo } from "./mcp-connection.js";
import type { McpServerSpec } from "./mcp-server-config.js";

/**
 * The tools each MCP server listed the last time it connected, kept in nyzhi's cache directory so
 * the next session can offer them before the server has started (decision 016): the first model
 * request never waits for a server whose tools are known. One file per server definition and
 * project (`<cache>/mcp-tools/<hash>.json`): the hash covers the whole definition (command, args,
 * env, URL, headers …) and the project root, so a changed definition is never served an old list.
 * Only the tool list is kept, never the definition (its env may hold secrets).
 */
export interface McpToolCache {
  /** The tools `spec` listed last time, or undefined (none kept, unreadable, or another version). */
  read(spec: McpServerSpec): Promise<McpToolInfo[] | undefined>;
  /** Keeps `tools` for `spec` unless they are what is kept already. Never throws. */
  write(spec: McpServerSpec, tools: readonly McpToolInfo[]): Promise<void>;
  /** Forgets `spec`'s tools (its start failed: the next session waits for it again). Never throws. */
  forget(spec: McpServerSpec): Promise<void>;
}

const CACHE_VERSION = 1;

export function mcpToolCache(cacheDir: string, projectRoot: string): McpToolCache {
  const directory = join(cacheDir, "mcp-tools");
  const pathOf = (spec: McpServerSpec) =>
    join(
      directory,
      `${createHash("sha256")
        .update(JSON.stringify([CACHE_VERSION, projectRoot, sortedKeys(spec)]))
        .digest("hex")
        .slice(0, 32)}.json`,
    );
  const kept = new Map<string, string>();
  return {
    async read(spec) {
      const path = pathOf(spec);
      try {
        const text = await readFile(path, "utf8");
        const parsed = JSON.parse(text) as { version?: unknown; tools?: unknown };
        if (parsed.version !== CACHE_VERSION || !Array.isArray(parsed.tools)) return undefined;
        const tools = parsed.tools.filter(isToolInfo);
        if (tools.length !== parsed.tools.length) return undefined;
        kept.set(path, text);
        return tools;
      } catch {
        return undefined;
      }
    },
    async write(spec, tools) {
      const path = pathOf(spec);
      const text = `${JSON.stringify({ version: CACHE_VERSION, server: spec.name, tools })}\n`;
      if (kept.get(path) === text) return;
      try {
        await writeFileAtomic(path, text, { mode: 0o600, fsync: false });
        kept.set(path, text);
      } catch (error) {
        getLogger().warn({ server: spec.name, error: errorMessage(error) }, "could not cache MCP tools");
      }
    },
    async forget(spec) {
      const path = pathOf(spec);
      kept.delete(path);
      await rm(path, { force: true }).catch(() => undefined);
    },
  };
}

function isToolInfo(value: unknown): value is McpToolInfo {
  const tool = value as Partial<McpToolInfo> | null;
  return (
    typeof tool === "object" &&
    tool !== null &&
    typeof tool.name === "string" &&
    typeof tool.inputSchema === "object" &&
    tool.inputSchema !== null &&
    (tool.description === undefined || typeof tool.description === "string")
  );
}

/** `value` with object keys in order, so the same definition always hashes alike. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
