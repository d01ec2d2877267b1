// A real MCP server over stdio, written with the SDK, for nyzhi's MCP tests. Run with `node`.
// Options (argv): --name=<server name>, --tools=<n> (n generated tools instead of the lab set),
// --hang (never answers initialize), --crash-on-start (exits before answering),
// --gate=<file> (answers nothing until <file> exists, relative to its cwd; exits 3 if <file>.crash does).
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { existsSync } from "node:fs";
import { z } from "zod";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);

if (flags.has("gate")) {
  const gate = flags.get("gate");
  while (!existsSync(gate) && !existsSync(`${gate}.crash`)) await new Promise((resolve) => setTimeout(resolve, 20));
  if (existsSync(`${gate}.crash`)) {
    process.stderr.write("fatal: the gate says crash\n");
    process.exit(3);
  }
}
if (flags.has("crash-on-start")) {
  process.stderr.write("fatal: cannot open the lab database\n");
  process.exit(3);
}
if (flags.has("hang")) {
  // Read stdin forever and answer nothing.
  process.stdin.resume();
  setInterval(() => {}, 1 << 30);
} else {
  const server = new McpServer({ name: flags.get("name") ?? "lab", version: "1.0.0" });
  const count = Number(flags.get("tools") ?? 0);
  if (count > 0) {
    for (let index = 0; index < count; index++) {
      const id = String(index).padStart(2, "0");
      server.registerTool(
        `tool_${id}`,
        {
          description: index === 7 ? "Measure the frobnication level of a sample." : `Lab utility number ${index}.`,
          inputSchema: { sample: z.string() },
          annotations: { readOnlyHint: true },
        },
        async ({ sample }) => ({ content: [{ type: "text", text: `tool_${id} measured ${sample}: 42` }] }),
      );
    }
  } else {
    server.registerTool(
      "echo",
      {
        description: "Echo a message back, with the server's working directory and LAB_TOKEN.",
        inputSchema: { message: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ message }) => ({
        content: [{ type: "text", text: `echo: ${message} (cwd ${process.cwd()}, token ${process.env.LAB_TOKEN ?? "-"})` }],
      }),
    );
    server.registerTool(
      "write_note",
      { description: "Store a note on the lab server.", inputSchema: { note: z.string() } },
      async ({ note }) => ({ content: [{ type: "text", text: `stored: ${note}` }] }),
    );
    server.registerTool(
      "snapshot",
      { description: "Return a tiny PNG and a link to the report.", annotations: { readOnlyHint: true } },
      async () => ({
        content: [
          { type: "text", text: "here is the picture" },
          {
            type: "image",
            mimeType: "image/png",
            data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
          },
          { type: "resource_link", uri: "lab://reports/1", name: "report-1", mimeType: "text/plain" },
        ],
      }),
    );
    server.registerTool(
      "fail",
      { description: "Always fails.", annotations: { readOnlyHint: true } },
      async () => ({ isError: true, content: [{ type: "text", text: "the sample is contaminated" }] }),
    );
    server.registerTool(
      "crash",
      { description: "Kill the server process (to test crash handling)." },
      async () => {
        process.stderr.write("lab server: crashing on request\n");
        setTimeout(() => process.exit(7), 10);
        return { content: [{ type: "text", text: "crashing" }] };
      },
    );
    let extra;
    server.registerTool(
      "add_tool",
      { description: "Register one more tool (sends tools/list_changed)." },
      async () => {
        extra ??= server.registerTool(
          "late_tool",
          { description: "A tool added at run time.", annotations: { readOnlyHint: true } },
          async () => ({ content: [{ type: "text", text: "late tool ran" }] }),
        );
        return { content: [{ type: "text", text: "added late_tool" }] };
      },
    );
    server.registerResource(
      "report",
      new ResourceTemplate("lab://reports/{id}", { list: async () => ({ resources: [{ uri: "lab://reports/1", name: "report-1" }] }) }),
      { description: "Lab reports", mimeType: "text/plain" },
      async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `Report ${id}: all samples nominal.` }] }),
    );
    server.registerPrompt(
      "review",
      { description: "Review a lab sample.", argsSchema: { sample: z.string() } },
      ({ sample }) => ({
        messages: [{ role: "user", content: { type: "text", text: `Please review sample ${sample} carefully.` } }],
      }),
    );
  }
  await server.connect(new StdioServerTransport());
}
