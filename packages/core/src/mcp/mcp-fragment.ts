import type { PromptFragment } from "../agent-loop/system-prompt.js";
import type { McpServerStatus } from "./mcp-manager.js";

/**
 * Tells the model which MCP servers are connected and how their tools are named, plus the
 * servers that are unavailable (so it does not look for their tools). Empty without servers.
 */
export function mcpFragment(statuses: readonly McpServerStatus[]): PromptFragment {
  if (statuses.length === 0) return { kind: "mcp", text: "" };
  const lines = statuses.map((status) =>
    // A server starting in the background already offers the tools it listed last time.
    status.state === "connected" || (status.state === "connecting" && status.tools.length > 0)
      ? `- ${status.name}: ${status.tools.length} tool(s), named mcp__${status.name}__<tool>`
      : `- ${status.name}: unavailable (${status.state}${status.error ? `: ${status.error.slice(0, 200)}` : ""})`,
  );
  return {
    kind: "mcp",
    text: `# MCP Servers\n\nTools from the user's MCP servers are prefixed \`mcp__<server>__\`. Use \`read_mcp_resource\` to read a resource a server offers.\n${lines.join("\n")}`,
  };
}
