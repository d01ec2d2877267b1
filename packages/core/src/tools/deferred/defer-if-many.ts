import type { Tool } from "../seam/define-tool.js";
import type { ToolRegistry } from "../seam/tool-registry.js";
import { toolSearchTool } from "./tool-search-tool.js";

/** Above this many tools in one group (e.g. all MCP tools), they are registered deferred. */
export const DEFAULT_DEFER_THRESHOLD = 15;

/**
 * Registers `tools` normally when there are at most `threshold` of them, otherwise deferred (not
 * offered until `tool_search` finds them or they are called by name) together with `tool_search`
 * itself when the registry lacks it. Returns whether the tools were deferred.
 */
export function deferIfMany(
  registry: ToolRegistry,
  tools: readonly Tool[],
  options: { threshold?: number } = {},
): { deferred: boolean } {
  const threshold = options.threshold ?? DEFAULT_DEFER_THRESHOLD;
  if (tools.length <= threshold) {
    for (const tool of tools) registry.register(tool);
    return { deferred: false };
  }
  for (const tool of tools) registry.registerDeferred(tool);
  if (!registry.has(toolSearchTool.name)) registry.register(toolSearchTool);
  return { deferred: true };
}
