import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  RipgrepMissingError,
  ripgrepAvailable,
  ripgrepKnownMissing,
  searchWithRipgrep,
} from "../../engines/grep/ripgrep-search.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { createGrepTool, runGrep } from "./grep-tool.js";

let test: TestContext;

async function put(path: string, content: string | Buffer) {
  const full = join(test.cwd, path);
  await mkdir(join(full, ".."), { recursive: true });
  await writeFile(full, content);
}

beforeEach(async () => {
  test = await createTestContext();
  await put("a.txt", "needle one\nnothing\n");
  await put("a/b.txt", "a needle in a\n");
  await put("b.ts", "const Needle = 1;\r\nconst needle = 2;\r\n");
  await put("src/deep/x.ts", `// needle ${"é".repeat(600)}😀\n`);
  await put("src/deep/y.js", "needle js\n");
  await put("src/keep.log", "needle kept by negation\n");
  await put("src/drop.log", "needle dropped\n");
  await put(".gitignore", "*.log\n!keep.log\nbuild/\n");
  await put("build/out.txt", "needle built\n");
  await put(".hidden/h.txt", "needle hidden\n");
  await put("node_modules/pkg/index.js", "needle dependency\n");
  await put("bin.dat", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2])]));
  await put("Zed.txt", "needle capital\n");
  await put("é.txt", "needle accent\n");
});
afterEach(async () => {
  await test.cleanup();
  vi.unstubAllEnvs();
});

const hasRipgrep = await ripgrepAvailable();

describe("grep", () => {
  it("finds matches as path:line:text sorted by path then line, skipping ignored, hidden, dependency and binary files", async () => {
    const output = await runGrep({ pattern: "needle" }, test.context, "js");
    // Byte order of names: upper case before lower case, "a" (a directory) before "a.txt".
    expect(output.split("\n")).toEqual([
      "Zed.txt:1:needle capital",
      "a/b.txt:1:a needle in a",
      "a.txt:1:needle one",
      "b.ts:2:const needle = 2;",
      `src/deep/x.ts:1:// needle ${"é".repeat(490)}…`,
      "src/deep/y.js:1:needle js",
      "src/keep.log:1:needle kept by negation",
      "é.txt:1:needle accent",
    ]);
  });

  it.skipIf(!hasRipgrep)(
    "gives identical output with ripgrep, in-process (auto) and with the JS fallback",
    async () => {
      const inputs = [
        { pattern: "needle" },
        { pattern: "NEEDLE", case_insensitive: true },
        { pattern: "needle", include: "*.ts" },
        { pattern: "needle", include: "src/**/*.{ts,js}" },
        { pattern: "needle", path: "src" },
        { pattern: "needle", path: "b.ts" },
        { pattern: "^const \\w+ = \\d;$" },
        { pattern: "\\bneedle\\s+\\w+$" },
        { pattern: "é{3}|capital" },
        { pattern: "n.e[dD]le (?:one|js)" },
        { pattern: "absent" },
      ];
      for (const input of inputs) {
        const fromRipgrep = await runGrep(input, test.context, "ripgrep");
        const fromJs = await runGrep(input, test.context, "js");
        const fromAuto = await runGrep(input, test.context, "auto");
        expect({ input, output: fromJs }).toEqual({ input, output: fromRipgrep });
        expect({ input, output: fromAuto }).toEqual({ input, output: fromRipgrep });
      }
    },
  );

  it.skipIf(!hasRipgrep)("keeps multi-byte characters whole across ripgrep's output chunks", async () => {
    // ~300 KB of matches: rg's output reaches us in many pipe reads, some splitting a character.
    await put(
      "wide.txt",
      Array.from({ length: 400 }, (_, index) => `wide ${index} ${"é€😀".repeat(60)}`).join("\n"),
    );
    const fromRipgrep = await runGrep({ pattern: "wide", path: "wide.txt" }, test.context, "ripgrep");
    expect(fromRipgrep).not.toContain("\uFFFD");
    expect(fromRipgrep).toBe(await runGrep({ pattern: "wide", path: "wide.txt" }, test.context, "js"));
  });

  it.skipIf(!hasRipgrep)("agrees on which matches to keep when there are more than 500", async () => {
    await put("many/a.txt", "hit\n".repeat(300));
    await put("many/b.txt", "hit\n".repeat(300));
    const fromRipgrep = await runGrep({ pattern: "hit" }, test.context, "ripgrep");
    const fromJs = await runGrep({ pattern: "hit" }, test.context, "js");
    expect(fromJs).toBe(fromRipgrep);
    const lines = fromJs.split("\n");
    expect(lines).toHaveLength(501);
    expect(lines[499]).toBe("many/b.txt:200:hit");
    expect(lines[500]).toBe(
      "(showing the first 500 matches; more exist — narrow the pattern, path or include)",
    );
  });

  it("uses the JS fallback when NYZHI_GREP_BACKEND=js, and reports bad input as tool errors", async () => {
    vi.stubEnv("NYZHI_GREP_BACKEND", "js");
    const tool = createGrepTool();
    expect((await runTool(tool, { pattern: "capital" }, test.context)).output).toBe(
      "Zed.txt:1:needle capital",
    );
    expect((await runTool(tool, { pattern: "(" }, test.context)).output).toMatch(
      /^Invalid regular expression/,
    );
    expect((await runTool(tool, { pattern: "x", path: "missing" }, test.context)).output).toBe(
      "Path not found: missing",
    );
    expect((await runTool(tool, {}, test.context)).isError).toBe(true);
  });

  it("falls back to JavaScript for patterns ripgrep's regex engine rejects", async () => {
    const tool = createGrepTool({ backend: "auto" });
    expect((await runTool(tool, { pattern: "needle(?= one)" }, test.context)).output).toBe(
      "a.txt:1:needle one",
    );
  });

  it.skipIf(!hasRipgrep)("does not mistake a vanished folder for a missing rg", async () => {
    const gone = join(test.cwd, "gone");
    await mkdir(gone);
    await rm(gone, { recursive: true });
    await expect(
      searchWithRipgrep({ pattern: "x", target: gone, targetIsFile: false, maxMatches: 10 }),
    ).rejects.not.toBeInstanceOf(RipgrepMissingError);
    expect(ripgrepKnownMissing()).toBe(false);
  });

  // Last in the file: once a search finds no rg, the module remembers it.
  it("without rg on the PATH: auto searches in JavaScript, a forced ripgrep says how to fix it", async () => {
    vi.stubEnv("PATH", join(test.cwd, "no-such-bin"));
    const forced = await runTool(
      createGrepTool({ backend: "ripgrep" }),
      { pattern: "capital" },
      test.context,
    );
    expect(forced.isError).toBe(true);
    expect(forced.output).toContain("ripgrep is not installed");
    const auto = await runTool(createGrepTool({ backend: "auto" }), { pattern: "capital" }, test.context);
    expect(auto.output).toBe("Zed.txt:1:needle capital");
  });
});
