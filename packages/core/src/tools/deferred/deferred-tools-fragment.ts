import type { PromptFragment } from "../../agent-loop/system-prompt.js";
import type { ToolRegistry } from "../seam/tool-registry.js";

/**
 * Tells the model that deferred tools exist and how to reach them: the built-in ones by name (so
 * it knows `git_log` is there), MCP server tools by count (there may be hundreds). Empty when
 * nothing is deferred. Built with the prompt, so it gives the set at start-up; `tool_search`
 * always searches the current set.
 */
export function deferredToolsFragment(registry: ToolRegistry): PromptFragment {
  const deferred = registry.deferredIndex().map((summary) => summary.name);
  if (deferred.length === 0) return { kind: "mcp", text: "" };
  const builtIn = deferred.filter((name) => !name.startsWith("mcp__"));
  const mcp = deferred.length - builtIn.length;
  const listed = builtIn.join(", ");
  const what =
    mcp === 0
      ? `${builtIn.length} more tools are available but not loaded: ${listed}.`
      : builtIn.length === 0
        ? `${mcp} more tools (such as MCP server tools) are available but not loaded.`
        : `${mcp} more tools from MCP servers are available but not loaded, and these built-in ones: ${listed}.`;
  return {
    kind: "mcp",
    text: `# More Tools\n\n${what} Call \`tool_search\` with a name or keywords to load one (it returns its description and schema); you can call it from your next step.`,
  };
}
