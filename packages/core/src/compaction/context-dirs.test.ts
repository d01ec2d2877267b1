import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contextDirs, ensureContextIgnored } from "./context-dirs.js";
import { saveThreadHistory } from "./history-file.js";
import { offloadLargeToolResult } from "./offload-tool-result.js";

const hasGit = (() => {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-context-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, GIT_CEILING_DIRECTORIES: root },
  });

describe("ensureContextIgnored", () => {
  it.skipIf(!hasGit)("keeps an offloaded tool result and a saved history out of git", async () => {
    git("init", "-q");
    const offloaded = await offloadLargeToolResult("x".repeat(5000), {
      dir: contextDirs(root).toolResults,
      toolName: "bash",
    });
    const history = await saveThreadHistory([], { dir: contextDirs(root).history, sessionId: "s1" });
    expect(offloaded.path).toBeDefined();
    // git check-ignore prints each ignored path (and exits 1 when none is).
    expect(
      git("check-ignore", offloaded.path as string, history)
        .trim()
        .split("\n"),
    ).toEqual([offloaded.path, history]);
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("?? .nyzhi/.gitignore\n");
  });

  it("adds context/ to an existing .nyzhi/.gitignore once, keeping its lines", async () => {
    await mkdir(join(root, ".nyzhi"));
    await writeFile(join(root, ".nyzhi", ".gitignore"), "mine.txt");
    await Promise.all([
      ensureContextIgnored(join(root, ".nyzhi", "context", "tool-results")),
      ensureContextIgnored(join(root, ".nyzhi", "context", "history")),
    ]);
    await ensureContextIgnored(join(root, ".nyzhi", "context"));
    expect(await readFile(join(root, ".nyzhi", ".gitignore"), "utf8")).toBe("mine.txt\ncontext/\n");
  });

  it("leaves a directory outside .nyzhi/context alone", async () => {
    await ensureContextIgnored(join(root, "elsewhere"));
    await offloadLargeToolResult("y".repeat(5000), { dir: join(root, "offloads") });
    await expect(readFile(join(root, ".nyzhi", ".gitignore"), "utf8")).rejects.toThrow("ENOENT");
  });
});
