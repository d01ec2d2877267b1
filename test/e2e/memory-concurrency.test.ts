import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const WORKER = fileURLToPath(new URL("./fixtures/memory-worker.mjs", import.meta.url));
const CORE = pathToFileURL(fileURLToPath(new URL("../../packages/core/dist/index.js", import.meta.url))).href;

function worker(dir: string, name: string, count: number): Promise<number | null> {
  const child = spawn(process.execPath, [WORKER, CORE, dir, name, String(count)], { stdio: "inherit" });
  return new Promise((resolve) => child.on("close", resolve));
}

describe("memory writes from several processes", () => {
  it("lose no lines and no index entries", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-memory-race-"));
    const codes = await Promise.all(["a", "b", "c"].map((name) => worker(dir, name, 25)));
    expect(codes).toEqual([0, 0, 0]);
    const shared = (await readFile(join(dir, "shared.md"), "utf8")).trim().split("\n");
    expect(shared).toHaveLength(75);
    for (const name of ["a", "b", "c"]) {
      expect(shared.filter((line) => line.startsWith(`${name} line `))).toHaveLength(25);
    }
    const index = await readFile(join(dir, "MEMORY.md"), "utf8");
    for (const topic of ["shared", "topic-a", "topic-b", "topic-c"])
      expect(index).toContain(`](${topic}.md)`);
  });
});
