import { z } from "zod";
import { defineShippedTool, ToolError } from "../tools/seam/define-tool.js";
import type { ToolContext } from "../tools/seam/tool-types.js";
import { describeContent } from "./map-mcp-result.js";
import type { McpManager } from "./mcp-manager.js";

/** Service key under which the runtime puts the session's McpManager. */
export const MCP_MANAGER_SERVICE = "mcpManager";

function managerOf(context: ToolContext): McpManager {
  const manager = context.services[MCP_MANAGER_SERVICE] as McpManager | undefined;
  if (!manager) throw new ToolError("read_mcp_resource is not available here: no MCP servers are running.");
  return manager;
}

/**
 * Reads a resource an MCP server offers (`lab://reports/1`), or lists a server's resources when
 * no `uri` is given. Read-only; the server does the work, so it is a `network` kind.
 */
export const readMcpResourceTool = defineShippedTool({
  name: "read_mcp_resource",
  description:
    "Read a resource from an MCP server by URI (e.g. a resource link a tool returned). Without `uri`, lists the server's resources.",
  inputSchema: z.lazy(() =>
    z.object({
      server: z.string().describe("The MCP server's name (the <server> of mcp__<server>__<tool>)."),
      uri: z.string().optional().describe("The resource URI; omit to list the server's resources."),
    }),
  ),
  kind: "network",
  mutates: false,
  async execute({ server, uri }, context) {
    const connection = await managerOf(context).whenConnected(server);
    if (uri === undefined) {
      if (!connection.client.getServerCapabilities()?.resources)
        return `MCP server "${server}" offers no resources.`;
      const { resources } = await connection.client.listResources({}, { signal: context.signal });
      if (resources.length === 0) return `MCP server "${server}" lists no resources.`;
      return resources
        .map(
          (resource) =>
            `- ${resource.uri}  ${resource.name}${resource.description ? ` — ${resource.description}` : ""}`,
        )
        .join("\n");
    }
    const result = await connection.client.readResource({ uri }, { signal: context.signal });
    const parts = result.contents.map((content) =>
      describeContent({
        type: "resource",
        resource: content as { uri: string; text?: string; blob?: string },
      }),
    );
    return parts.join("\n\n") || `${uri} is empty.`;
  },
});
