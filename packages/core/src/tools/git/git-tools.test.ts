import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import { allGitTools } from "../catalogue/all-git-tools.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { gitBranchTool, gitDiffTool, gitLogTool, gitShowTool, gitStatusTool } from "./git-read-tools.js";
import { gitCheckoutTool, gitCommitTool } from "./git-write-tools.js";

let test: TestContext;
const git = (...args: string[]) => execFileSync("git", args, { cwd: test.cwd, encoding: "utf8" });

beforeEach(async () => {
  test = await createTestContext();
  git("init", "--quiet", "--initial-branch=main");
  git("config", "user.name", "Test User");
  git("config", "user.email", "test@example.com");
  git("config", "commit.gpgsign", "false");
});
afterEach(async () => {
  await test.cleanup();
});

describe("git tools on a real repository", () => {
  it("declare which of them mutate", () => {
    expect(allGitTools().map((tool) => [tool.name, tool.kind, tool.mutates])).toEqual([
      ["git_status", "read", false],
      ["git_diff", "read", false],
      ["git_log", "read", false],
      ["git_show", "read", false],
      ["git_branch", "read", false],
      ["git_commit", "execute", true],
      ["git_checkout", "execute", true],
    ]);
  });

  it("status, commit, log, diff, show, branch and checkout", async () => {
    const { context } = test;
    expect((await gitStatusTool.run({}, context)).output).toBe(
      "On branch main (no commits yet)\nWorking tree clean",
    );
    expect((await gitLogTool.run({}, context)).output).toBe("No commits yet");

    await writeFile(join(test.cwd, "a.txt"), "one\n");
    await mkdir(join(test.cwd, "dir"));
    await writeFile(join(test.cwd, "dir", "b.txt"), "bee\n");
    expect((await gitStatusTool.run({}, context)).output).toBe(
      "On branch main (no commits yet)\n?? a.txt\n?? dir/b.txt",
    );

    const first = await gitCommitTool.run({ message: "first commit" }, context);
    const hash = git("rev-parse", "--short", "HEAD").trim();
    expect(first).toEqual({
      output: `Committed ${hash}: first commit\n2 files changed, 2 insertions(+)`,
      metadata: { hash },
    });
    expect((await gitStatusTool.run({}, context)).output).toBe("On branch main\nWorking tree clean");

    await writeFile(join(test.cwd, "a.txt"), "one\ntwo\n");
    await writeFile(join(test.cwd, "dir", "b.txt"), "bee\nsting\n");
    const diff = await gitDiffTool.run({ path: "a.txt" }, context);
    expect(diff.output).toContain(" a.txt | 1 +");
    expect(diff.output).toContain("+two");
    expect(diff.output).not.toContain("sting");
    expect((await gitDiffTool.run({ staged: true }, context)).output).toBe("No staged changes");

    const second = await gitCommitTool.run({ message: "only a", paths: ["a.txt"] }, context);
    expect(second.output).toMatch(/^Committed [0-9a-f]{7,}: only a\n1 file changed, 1 insertion\(\+\)$/);
    expect((await gitStatusTool.run({}, context)).output).toBe("On branch main\n M dir/b.txt");

    const log = await gitLogTool.run({ count: 5 }, context);
    const today = git("log", "-1", "--date=short", "--format=%ad").trim();
    expect(log.output.split("\n")).toEqual([
      `${git("rev-parse", "--short", "HEAD").trim()} ${today} Test User | only a`,
      `${hash} ${today} Test User | first commit`,
    ]);
    expect((await gitLogTool.run({ count: 1 }, context)).output.split("\n")).toHaveLength(1);
    expect((await gitLogTool.run({ path: "dir" }, context)).output).toContain("first commit");
    expect((await gitLogTool.run({ path: "dir" }, context)).output).not.toContain("only a");
    expect((await gitLogTool.run({ author: "nobody" }, context)).output).toBe("No matching commits");

    const show = await gitShowTool.run({ ref: "HEAD" }, context);
    expect(show.output).toContain("only a");
    expect(show.output).toContain("+two");

    expect((await gitCheckoutTool.run({ branch: "feature", create: true }, context)).output).toBe(
      "Switched to a new branch feature",
    );
    expect((await gitBranchTool.run({}, context)).output).toBe("* feature\n  main");
    expect((await gitCheckoutTool.run({ branch: "main" }, context)).output).toBe("Switched to branch main");
    expect(git("branch", "--show-current").trim()).toBe("main");
  });

  it("reports nothing to commit, unknown refs and option-like arguments clearly", async () => {
    const { context } = test;
    await writeFile(join(test.cwd, "a.txt"), "x\n");
    await gitCommitTool.run({ message: "init" }, context);
    expect(await gitCommitTool.run({ message: "again" }, context)).toEqual({
      output: "Nothing to commit: the working tree has no changes (for the given paths).",
      isError: true,
    });
    const unknown = await gitShowTool.run({ ref: "no-such-ref" }, context);
    expect(unknown.isError).toBe(true);
    expect(unknown.output).toMatch(/^git show failed: fatal: ambiguous argument 'no-such-ref'/);
    expect(gitShowTool.parse({ ref: "--output=/tmp/x" })).toEqual({
      ok: false,
      error: 'Invalid arguments for git_show:\n- ref: ref must not be empty or start with "-"',
    });
    expect(gitLogTool.parse({ count: 101 }).ok).toBe(false);
  });

  it("says clearly when the workspace is not a git repository", async () => {
    const outside = await createTestContext();
    try {
      const result = await gitStatusTool.run({}, outside.context);
      expect(result).toEqual({
        output: `${outside.cwd} is not inside a git repository. Run \`git init\` first or open a repository.`,
        isError: true,
      });
    } finally {
      await outside.cleanup();
    }
  });

  it("mutating git tools declare and check a workspace write (refused in a read-only sandbox)", async () => {
    const { context } = test;
    expect(gitCommitTool.pathsOf({ message: "m", paths: ["a.txt"] }, context)).toEqual([
      { path: ".", access: "write" },
      { path: "a.txt", access: "read" },
    ]);
    context.paths = createPathGuard({ level: "read-only", roots: [test.cwd], cwd: test.cwd });
    await writeFile(join(test.cwd, "a.txt"), "x\n");
    const refused = await gitCommitTool.run({ message: "m" }, context);
    expect(refused.isError).toBe(true);
    expect(refused.output).toContain("the sandbox is read-only");
    expect(git("status", "--short")).toBe("?? a.txt\n");
  });
});
