import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface TestHttpMcpServer {
  url: string;
  /** Authorization headers seen, one per request. */
  seenAuthorization: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A Streamable HTTP MCP server (stateless: a fresh McpServer per request) on 127.0.0.1 that
 * answers 401 unless `Authorization: Bearer <token>` is sent. Tools: `lookup` (read-only) and
 * `deploy` (mutating).
 */
export async function startHttpMcpServer(options: { token: string }): Promise<TestHttpMcpServer> {
  const seenAuthorization: (string | undefined)[] = [];
  const server: Server = createServer(async (request, response) => {
    seenAuthorization.push(request.headers.authorization);
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const mcp = new McpServer({ name: "docs", version: "1.0.0" });
    mcp.registerTool(
      "lookup",
      {
        description: "Look a term up in the team docs.",
        inputSchema: { term: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ term }) => ({ content: [{ type: "text", text: `docs: ${term} means "ship it"` }] }),
    );
    mcp.registerTool(
      "deploy",
      { description: "Deploy the docs site.", inputSchema: { target: z.string() } },
      async ({ target }) => ({ content: [{ type: "text", text: `deployed to ${target}` }] }),
    );
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seenAuthorization,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
