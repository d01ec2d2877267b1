import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelMessage } from "@nyzhi/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildLongThread } from "./__fixtures__/build-thread.js";
import { dedupRepeatedReads, microcompactToolResults } from "./progressive-compaction.js";
import { validateThread } from "./validate-thread.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nyzhi-micro-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function read(id: string, input: Record<string, unknown>, output: string): ModelMessage[] {
  return [
    { role: "assistant", content: [{ type: "tool-call", id, name: "read", input }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "read", output }] },
  ];
}

describe("dedupRepeatedReads", () => {
  it("collapses earlier reads of the same file_path and keeps every call paired", () => {
    const body = "export const a = 1;\n".repeat(20);
    const thread: ModelMessage[] = [
      { role: "user", content: "look at a.ts" },
      ...read("r1", { file_path: "src/a.ts" }, body),
      ...read("r2", { file_path: "src/a.ts", offset: 5, limit: 3 }, "5|x\n6|y\n7|z"),
      ...read("r3", { file_path: "src/b.ts" }, body),
      ...read("r4", { file_path: "src/a.ts" }, body),
    ];
    const result = dedupRepeatedReads(thread);
    const note = "[Earlier read of src/a.ts — superseded by a later read of the same file]";
    expect(result.changed).toBe(1);
    expect(result.thread[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "r1", toolName: "read", output: note }],
    });
    // The ranged read is shorter than the note, so it stays; b.ts and the last read stay.
    expect(result.thread.slice(3)).toEqual(thread.slice(3));
    expect(result.savedTokens).toBeGreaterThan(50);
    expect(validateThread(result.thread).ok).toBe(true);
    expect(thread[2]).toEqual(read("r1", { file_path: "src/a.ts" }, body)[1]);
  });

  it("ignores reads keyed on other argument names and other tools", () => {
    const thread: ModelMessage[] = [
      { role: "user", content: "x" },
      ...read("r1", { path: "a" }, "y".repeat(500)),
      ...read("r2", { path: "a" }, "y".repeat(500)),
    ];
    expect(dedupRepeatedReads(thread)).toEqual({ thread, changed: 0, savedTokens: 0 });
  });
});

describe("microcompactToolResults", () => {
  it("moves large outputs of all but the newest results into files", async () => {
    const thread = buildLongThread(10);
    const result = await microcompactToolResults(thread, { dir, keepRecentResults: 3 });
    // Large results are in turns 0, 3, 6 and 9; turn 9 is among the newest three.
    expect(result.changed).toBe(3);
    for (const turn of [0, 3, 6]) {
      const message = result.thread[turn * 4 + 2]!;
      const output = message.role === "tool" ? message.content[0]!.output : "";
      expect(output).toMatch(
        /^\[Output written to .*-read-call_\d\.txt \(\d+ lines, \d+ chars\)\. Use read or tail_file to inspect\.\]$/,
      );
      const path = /written to (.*?) \(/.exec(output)![1]!;
      expect(await readFile(path, "utf8")).toBe(
        (thread[turn * 4 + 2]! as { content: { output: string }[] }).content[0]!.output,
      );
    }
    expect(result.thread[38]).toBe(thread[38]);
    expect(validateThread(result.thread).ok).toBe(true);
  });
});
