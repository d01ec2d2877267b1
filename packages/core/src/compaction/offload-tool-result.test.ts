import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contextDirs } from "./context-dirs.js";
import { offloadLargeToolResult } from "./offload-tool-result.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nyzhi-offload-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("offloadLargeToolResult", () => {
  it("writes a large output to .nyzhi/context/tool-results and returns a pointer", async () => {
    const dir = contextDirs(root).toolResults;
    expect(dir).toBe(join(root, ".nyzhi", "context", "tool-results"));
    const output = "0123456789\n".repeat(400);
    const result = await offloadLargeToolResult(output, {
      dir,
      toolName: "bash",
      callId: "toolu/1",
      now: new Date(2025, 0, 2, 3, 4, 5, 6),
    });
    const path = join(dir, "20250102_030405_006-bash-toolu_1.txt");
    expect(result).toEqual({
      path,
      output: `[Output written to ${path} (400 lines, 4400 chars). Use read or tail_file to inspect.]`,
    });
    expect(await readFile(path, "utf8")).toBe(output);
  });

  it("keeps outputs under the threshold and writes nothing", async () => {
    const dir = contextDirs(root).toolResults;
    expect(await offloadLargeToolResult("x".repeat(3999), { dir })).toEqual({
      output: "x".repeat(3999),
      path: undefined,
    });
    expect(await offloadLargeToolResult("abc", { dir, thresholdChars: 3 })).toMatchObject({
      output: expect.stringMatching(/^\[Output written to .*-tool-[0-9a-f]{6}\.txt \(1 lines, 3 chars\)/),
    });
    expect(await readdir(dir)).toHaveLength(1);
  });
});
