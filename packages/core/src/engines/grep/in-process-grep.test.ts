import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createGrepTool } from "../../tools/search/grep-tool.js";
import { createTestContext, type TestContext } from "../../tools/testing/create-test-context.js";
import { runTool } from "../../tools/testing/run-tool.js";
import { IN_PROCESS_LIMITS, type InProcessLimits, searchInProcess } from "./in-process-grep.js";
import { ripgrepAvailable } from "./ripgrep-search.js";

let test: TestContext;

async function put(path: string, content: string | Buffer) {
  const full = join(test.cwd, path);
  await mkdir(join(full, ".."), { recursive: true });
  await writeFile(full, content);
}

const search = (pattern: string, target: string, limits: Partial<InProcessLimits> = {}) =>
  searchInProcess(
    { pattern, target, targetIsFile: false, maxMatches: 100 },
    { ...IN_PROCESS_LIMITS, ...limits },
  );

beforeEach(async () => {
  test = await createTestContext();
  await put("a.txt", "needle one\n");
  await put("sub/b.txt", "needle two\n");
});
afterEach(async () => {
  await test.cleanup();
  vi.unstubAllEnvs();
});

describe("searchInProcess", () => {
  it("searches a small folder in walk order", () => {
    expect(search("needle", test.cwd)?.matches).toEqual([
      { path: join(test.cwd, "a.txt"), line: 1, text: "needle one" },
      { path: join(test.cwd, "sub/b.txt"), line: 1, text: "needle two" },
    ]);
  });

  it("hands the search over past its limits, and remembers a folder found too large", async () => {
    await put("big/c.txt", "needle three\n");
    const big = join(test.cwd, "big");
    expect(search("needle", test.cwd, { maxEntries: 3, maxBytes: 1000 })).toBeUndefined();
    expect(search("needle", big, { maxEntries: 3, maxBytes: 1000 })).toBeDefined();
    // The workspace was found too large: not walked again, even within wider limits.
    expect(search("needle", test.cwd, { maxEntries: 100, maxBytes: 1000 })).toBeUndefined();
    expect(search("needle", big, { maxEntries: 100, maxBytes: 5 })).toBeUndefined();
  });

  it("hands over patterns it cannot translate and files ripgrep decodes differently", async () => {
    expect(search("needle(?=x)", join(test.cwd, "sub"))).toBeUndefined();
    await put("bom/a.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("needle\n")]));
    expect(search("needle", join(test.cwd, "bom"))).toBeUndefined();
    await put("latin1/a.txt", Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xe9, 0x0a]));
    expect(search("needle", join(test.cwd, "latin1"))).toBeUndefined();
  });

  it("counts every entry it reads against the budget, ignored ones too", async () => {
    await put("flat/.gitignore", "*.txt\n");
    for (let index = 0; index < 20; index += 1) await put(`flat/f${index}.txt`, "needle\n");
    expect(search("needle", join(test.cwd, "flat"), { maxEntries: 10 })).toBeUndefined();
  });

  it("refuses what could backtrack for long (ripgrep's engine is linear, JavaScript's is not)", async () => {
    await put("slow/a.txt", `${"a".repeat(30)}\n`);
    const slow = join(test.cwd, "slow");
    const started = performance.now();
    // Each of these takes seconds to minutes on that line in JavaScript.
    expect(search("(a+)+b", slow)).toBeUndefined();
    expect(search("(\\w+)+x", slow)).toBeUndefined();
    expect(search("a.*a.*a.*b", slow)).toBeUndefined();
    // Lines longer than the limit, and matching past the time limit, hand over too.
    await put("long/a.txt", `${"x".repeat(600)}\n`);
    expect(search("x", join(test.cwd, "long"))).toBeUndefined();
    await put("cubic/a.txt", `${"a=".repeat(240)}\n`.repeat(50));
    expect(search("a.*=.*z", join(test.cwd, "cubic"), { maxMatchMs: 5 })).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(3000);
    expect(search("a.*=.*1", join(test.cwd, "slow"))?.matches).toEqual([]);
  });

  it("refuses patterns with many choice points, bounded ones included, and caps lines harder at two", async () => {
    await put("spaces/a.txt", `${" ".repeat(500)}\n`);
    await put("letters/a.txt", `${"a".repeat(499)}\n`.repeat(20));
    const started = performance.now();
    // Seconds to minutes each in JavaScript on these lines, linear in ripgrep.
    expect(search("\\s{0,20}\\s{0,20}\\s{0,20}\\s{0,20}x", join(test.cwd, "spaces"))).toBeUndefined();
    expect(search(`${"(?:a|a)".repeat(24)}b`, join(test.cwd, "letters"))).toBeUndefined();
    expect(search(`${"a?".repeat(40)}${"a".repeat(40)}`, join(test.cwd, "letters"))).toBeUndefined();
    // Two choice points: allowed, but only on lines of at most a fifth of maxLineChars.
    expect(search("\\w+\\w+:", join(test.cwd, "letters"))).toBeUndefined();
    await put("short/a.txt", "key: value\n");
    expect(search("\\w+\\w+:", join(test.cwd, "short"))?.matches).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("remembers a search that ran past the time limit, and leaves it to ripgrep from then on", async () => {
    await put("cubic/a.txt", `${"a=".repeat(40)}\n`.repeat(400));
    const cubic = join(test.cwd, "cubic");
    expect(search("a.*=.*z", cubic, { maxMatchMs: 0 })).toBeUndefined();
    expect(search("a.*=.*z", cubic, { maxMatchMs: 60_000 })).toBeUndefined();
    expect(search("a.*=.*y", cubic, { maxMatchMs: 60_000 })?.matches).toEqual([]);
  });

  it("leaves include globs, and anything but regular files, to ripgrep", async () => {
    expect(
      searchInProcess({
        pattern: "needle",
        target: test.cwd,
        targetIsFile: false,
        include: "*.txt",
        maxMatches: 9,
      }),
    ).toBeUndefined();
    const fifo = join(test.cwd, "pipe");
    execFileSync("mkfifo", [fifo]);
    expect(
      searchInProcess({ pattern: "x", target: fifo, targetIsFile: true, maxMatches: 9 }),
    ).toBeUndefined();
  });

  it("skips binary files, as the ripgrep back end does", async () => {
    await put("bin/a.dat", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0])]));
    await put("bin/b.txt", "needle\n");
    expect(search("needle", join(test.cwd, "bin"))?.matches).toEqual([
      { path: join(test.cwd, "bin/b.txt"), line: 1, text: "needle" },
    ]);
  });
});

const hasRipgrep = await ripgrepAvailable();

describe.skipIf(!hasRipgrep)("grep (auto) and ripgrep", () => {
  /** Puts an `rg` first on the PATH that logs each call, then runs the real one. */
  async function countingRipgrep(): Promise<() => Promise<number>> {
    const realRipgrep = execFileSync("sh", ["-c", "command -v rg"], { encoding: "utf8" }).trim();
    const bin = join(test.cwd, ".bin");
    const log = join(test.cwd, ".rg-calls");
    await mkdir(bin);
    await writeFile(log, "");
    await writeFile(join(bin, "rg"), `#!/bin/sh\necho call >> '${log}'\nexec '${realRipgrep}' "$@"\n`);
    await chmod(join(bin, "rg"), 0o755);
    vi.stubEnv("PATH", `${bin}${delimiter}${process.env.PATH}`);
    return async () => (await readFile(log, "utf8")).split("\n").filter(Boolean).length;
  }

  it("starts no ripgrep for a small folder, and ripgrep for a large one, with the same output", async () => {
    const calls = await countingRipgrep();
    const tool = createGrepTool({ backend: "auto" });
    expect((await runTool(tool, { pattern: "needle" }, test.context)).output).toBe(
      "a.txt:1:needle one\nsub/b.txt:1:needle two",
    );
    expect(await calls()).toBe(0);

    for (let index = 0; index < 400; index += 1) await put(`many/f${index}.txt`, `x ${index}\n`);
    const large = await runTool(tool, { pattern: "needle|x 399$" }, test.context);
    expect(await calls()).toBe(1);
    expect(large.output).toBe("a.txt:1:needle one\nmany/f399.txt:1:x 399\nsub/b.txt:1:needle two");
    expect(
      (await runTool(createGrepTool({ backend: "ripgrep" }), { pattern: "needle|x 399$" }, test.context))
        .output,
    ).toBe(large.output);
  });
});
