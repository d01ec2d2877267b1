import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MCP_INDEX_PATH, writeMcpIndex } from "./write-mcp-index.js";

describe("writeMcpIndex", () => {
  it("writes the sorted index of deferred MCP tools under .nyzhi/context/tools", async () => {
    const root = await mkdtemp(join(tmpdir(), "nyzhi-mcp-index-"));
    await writeMcpIndex(root, [
      { name: "mcp__lab__write", description: "Write a note.\nMore detail." },
      { name: "mcp__lab__echo", description: "Echo text." },
    ]);
    expect(await readFile(join(root, MCP_INDEX_PATH), "utf8")).toBe(
      "# MCP Tool Index\n\n- `mcp__lab__echo`  Echo text.\n- `mcp__lab__write`  Write a note.\n",
    );
  });
});
