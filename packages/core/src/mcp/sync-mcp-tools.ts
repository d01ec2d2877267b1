import type { Tool } from "../tools/seam/define-tool.js";
import type { ToolRegistry } from "../tools/seam/tool-registry.js";

/**
 * Brings a registry's `mcp__*` tools in line with `tools` (after a server connected, crashed or
 * sent `tools/list_changed`): gone tools are removed, new ones added (deferred when the session
 * defers MCP tools), existing ones replaced in place so an expanded tool stays expanded.
 */
export function syncMcpTools(
  registry: ToolRegistry,
  tools: readonly Tool[],
  options: { deferred: boolean },
): void {
  const wanted = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of registry.names()) {
    if (name.startsWith("mcp__") && !wanted.has(name)) registry.unregister(name);
  }
  for (const tool of tools) {
    const known = registry.has(tool.name);
    if (known && registry.isDeferred(tool.name)) registry.registerDeferred(tool);
    else if (known || !options.deferred) registry.register(tool);
    else registry.registerDeferred(tool);
  }
}
