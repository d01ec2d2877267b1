import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { detectChecks } from "./detect-checks.js";
import { createVerifyTool, verifyTool } from "./verify.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext({
    services: { sandbox: { level: "full-access", roots: [], allowNetwork: false } },
  });
  test.context.paths = createPathGuard({ level: "full-access", roots: [test.cwd], cwd: test.cwd });
});
afterEach(async () => {
  await test.cleanup();
});

describe("verify", () => {
  it("is an execute tool that mutates", () => {
    expect({ kind: verifyTool.kind, mutates: verifyTool.mutates }).toEqual({
      kind: "execute",
      mutates: true,
    });
  });

  it("runs configured checks in order and reports PASS/FAIL with the failing output's tail", async () => {
    const tool = createVerifyTool({
      checks: [
        { kind: "build", command: "echo building" },
        { kind: "test", command: "echo 'test 3 failed' >&2; exit 2" },
      ],
    });
    const result = await tool.run({}, test.context);
    const lines = result.output.split("\n");
    expect(lines[0]).toMatch(/^\[PASS\] build \(echo building\) - \d+\.\ds$/);
    expect(lines[1]).toMatch(/^\[FAIL\] test \(echo 'test 3 failed' >&2; exit 2\) - \d+\.\ds$/);
    expect(lines.slice(2)).toEqual(["    test 3 failed", "    (exit code 2)", "1 of 2 checks failed."]);
    expect(result.metadata).toMatchObject({
      allPassed: false,
      evidence: [
        { kind: "build", command: "echo building", exitCode: 0, passed: true },
        { kind: "test", exitCode: 2, passed: false },
      ],
    });
    expect(test.progress.join("")).toContain("$ echo building\nbuilding\n");
  });

  it("input checks win over configured ones; detection is the fallback", async () => {
    const tool = createVerifyTool({ checks: [{ kind: "test", command: "exit 1" }] });
    expect((await tool.run({ checks: [{ kind: "custom", command: "true" }] }, test.context)).output).toMatch(
      /^\[PASS\] custom \(true\) - \d+\.\ds\nAll 1 checks passed\.$/,
    );
    expect((await verifyTool.run({}, test.context)).output).toMatch(/^No checks configured or detected/);
  });

  it("started in a folder without a manifest, detects and runs the project root's checks there", async () => {
    await writeFile(join(test.cwd, "package.json"), JSON.stringify({ scripts: { test: "pwd" } }));
    const sub = join(test.cwd, "src");
    await mkdir(sub);
    const context = { ...test.context, cwd: sub, projectRoot: test.cwd };
    const result = await verifyTool.run({}, context);
    expect(result.output).toMatch(/^\[PASS\] test \(npm test\)/);
    expect(test.progress.join("")).toContain(`\n${test.cwd}\n`);
    // A manifest in the working directory wins, and its checks run there.
    await writeFile(join(sub, "package.json"), JSON.stringify({ scripts: { build: "pwd" } }));
    expect((await verifyTool.run({}, context)).output).toMatch(/^\[PASS\] build \(npm run build\)/);
    expect(test.progress.join("")).toContain(`\n${sub}\n`);
  });
});

describe("detectChecks", () => {
  it("reads package.json scripts and the lockfile's package manager", async () => {
    await writeFile(
      join(test.cwd, "package.json"),
      JSON.stringify({ scripts: { build: "tsup", test: "vitest" } }),
    );
    expect(await detectChecks(test.cwd)).toEqual([
      { kind: "build", command: "npm run build" },
      { kind: "test", command: "npm test" },
    ]);
    await writeFile(join(test.cwd, "pnpm-lock.yaml"), "");
    expect(await detectChecks(test.cwd)).toEqual([
      { kind: "build", command: "pnpm run build" },
      { kind: "test", command: "pnpm run test" },
    ]);
  });

  it("prefers Cargo.toml", async () => {
    await writeFile(join(test.cwd, "Cargo.toml"), "");
    await writeFile(join(test.cwd, "package.json"), "{}");
    expect((await detectChecks(test.cwd)).map((check) => check.command)).toEqual([
      "cargo check",
      "cargo test",
      "cargo clippy -- -D warnings",
    ]);
  });
});
