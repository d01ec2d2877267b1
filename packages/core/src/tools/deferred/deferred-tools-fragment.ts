import type { PromptFragment } from "../../agent-loop/system-prompt.js";
import type { ToolRegistry } from "../seam/tool-registry.js";

/**
 * Tells the model that deferred tools exist and how to reach them (the >15 MCP tools case of the
 * system prompt). Empty when nothing is deferred. Built with the prompt, so it gives the count at
 * start-up; `tool_search` always searches the current set.
 */
export function deferredToolsFragment(registry: ToolRegistry): PromptFragment {
  const count = registry.deferredCount();
  if (count === 0) return { kind: "mcp", text: "" };
  return {
    kind: "mcp",
    text: `# More Tools\n\n${count} more tools (such as MCP server tools) are available but not loaded, to keep requests small. Call \`tool_search\` with a few keywords (or a regex) to find one: it returns the tool's description and input schema and loads it, so you can call it from your next step.`,
  };
}
