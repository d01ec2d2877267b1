import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { searchWithRipgrep } from "./ripgrep-search.js";

const hasRipgrep = spawnSync("rg", ["--version"], { stdio: "ignore" }).status === 0;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nyzhi-rg-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasRipgrep)("searchWithRipgrep", () => {
  it("stops at the cap inside one file with many more matches", async () => {
    const file = join(dir, "many.txt");
    await writeFile(file, "hit\n".repeat(20_000));
    const result = await searchWithRipgrep({
      pattern: "hit",
      target: file,
      targetIsFile: true,
      maxMatches: 5,
    });
    expect(result).toEqual({
      matches: [1, 2, 3, 4, 5].map((line) => ({ path: file, line, text: "hit" })),
      truncated: true,
    });
  });

  it("drops a file with a NUL byte even when its matches pass the cap, and goes on to the next file", async () => {
    await writeFile(
      join(dir, "a-binary.dat"),
      Buffer.concat([Buffer.from("hit\n".repeat(100_000)), Buffer.from([0])]),
    );
    await writeFile(join(dir, "b.txt"), "hit\nmiss\nhit\n");
    const result = await searchWithRipgrep({
      pattern: "hit",
      target: dir,
      targetIsFile: false,
      maxMatches: 5,
    });
    expect(result).toEqual({
      matches: [
        { path: join(dir, "b.txt"), line: 1, text: "hit" },
        { path: join(dir, "b.txt"), line: 3, text: "hit" },
      ],
      truncated: false,
    });
  });
});
