import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IndexRootError, walkProject } from "./walk-project.js";

let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "nyzhi-walk-"));
  // The user's global git config (core.excludesFile) must not change what git lists here.
  vi.stubEnv("GIT_CONFIG_GLOBAL", "/dev/null");
  vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(workspace, { recursive: true, force: true });
});

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

const hasGit = (() => {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function gitInit(root: string): void {
  execFileSync("git", ["init", "-q"], { cwd: root, stdio: "ignore" });
}

/** A project with the ignore cases of the acceptance: nested `.gitignore`, negation, directory rules. */
function writeIgnoreFixture(root: string): void {
  write(root, {
    ".gitignore": "*.log\n!keep.log\nbuild/\n/generated.ts\n*.gen.ts\n",
    "keep.log": "kept by negation\n",
    "debug.log": "ignored\n",
    "src/index.ts": "export const a = 1;\n",
    "src/generated.ts": "not anchored at the root: kept\n",
    "generated.ts": "anchored at the root: ignored\n",
    "build/out.js": "ignored directory\n",
    "src/lib/.gitignore": "*.tmp.ts\n!important.tmp.ts\n/local/\n!kept.gen.ts\n",
    "src/lib/kept.gen.ts": "excluded by the root file, re-included by the nested one\n",
    "src/other.gen.ts": "excluded by the root file\n",
    "src/lib/a.tmp.ts": "ignored by the nested file\n",
    "src/lib/important.tmp.ts": "re-included by the nested file\n",
    "src/lib/local/x.ts": "ignored by the nested directory rule\n",
    "src/lib/util.ts": "export {};\n",
    "local/y.ts": "the nested rule is anchored at src/lib: kept\n",
    "node_modules/pkg/index.js": "default rule\n",
    "pnpm-lock.yaml": "default rule\n",
    ".nyzhiignore": "docs/private/\n",
    "src/.nyzhiignore": "scratch.ts\n",
    "src/scratch.ts": "ignored by the nested .nyzhiignore\n",
    "scratch.ts": "the nested .nyzhiignore does not reach up: kept\n",
    "docs/private/secret.md": "ignored by .nyzhiignore\n",
    "docs/readme.md": "# docs\n",
    "vendor/big/lib.ts": "excluded by index.exclude\n",
    "src/app.snap": "excluded by a basename glob\n",
  });
}

const expectedIgnoreFixturePaths = [
  ".gitignore",
  ".nyzhiignore",
  "docs/readme.md",
  "keep.log",
  "local/y.ts",
  "scratch.ts",
  "src/.nyzhiignore",
  "src/generated.ts",
  "src/index.ts",
  "src/lib/.gitignore",
  "src/lib/important.tmp.ts",
  "src/lib/kept.gen.ts",
  "src/lib/util.ts",
];

describe("walkProject", () => {
  it("honours nested .gitignore files, negation and directory rules outside git (ignore package)", async () => {
    writeIgnoreFixture(workspace);
    const result = await walkProject(workspace, { exclude: ["vendor/**", "*.snap"] });
    expect(result.source).toBe("filesystem");
    expect(result.files.map((file) => file.path)).toEqual(expectedIgnoreFixturePaths);
    // debug.log, generated.ts, build/, src/other.gen.ts, src/lib/a.tmp.ts, src/lib/local/,
    // node_modules/, pnpm-lock.yaml, docs/private/, src/scratch.ts, vendor/, src/app.snap: a
    // directory counts once.
    expect(result.skipped).toEqual({ ignored: 12, tooLarge: 0, binary: 0, outsideRoot: 0 });
  });

  it.skipIf(!hasGit)("gives the same files inside a git work tree (git ls-files)", async () => {
    writeIgnoreFixture(workspace);
    gitInit(workspace);
    const result = await walkProject(workspace, { exclude: ["vendor/**", "*.snap"] });
    expect(result.source).toBe("git");
    expect(result.files.map((file) => file.path)).toEqual(expectedIgnoreFixturePaths);
    // git hides what .gitignore excludes; the walker counts the files it drops itself:
    // node_modules/pkg/index.js, pnpm-lock.yaml, docs/private/secret.md, src/scratch.ts,
    // vendor/big/lib.ts, src/app.snap.
    expect(result.skipped).toEqual({ ignored: 6, tooLarge: 0, binary: 0, outsideRoot: 0 });
  });

  it.skipIf(!hasGit)("walks the file system when the enclosing repository ignores the project", async () => {
    write(workspace, {
      ".gitignore": "project/\n",
      "project/a.ts": "x\n",
      "project/.gitignore": "b.ts\n",
      "project/b.ts": "y\n",
    });
    gitInit(workspace);
    const result = await walkProject(join(workspace, "project"));
    expect(result.source).toBe("filesystem");
    expect(result.files.map((file) => file.path)).toEqual([".gitignore", "a.ts"]);
  });

  it.skipIf(!hasGit)("walks the file system when the project's .git is no repository", async () => {
    write(workspace, { ".git/config": "not a repository\n", "a.ts": "x\n" });
    const result = await walkProject(workspace);
    expect(result.source).toBe("filesystem");
    expect(result.files.map((file) => file.path)).toEqual(["a.ts"]);
  });

  it("lets a project re-include a default rule", async () => {
    write(workspace, { ".nyzhiignore": "!node_modules/\n", "node_modules/pkg/index.js": "x\n" });
    const result = await walkProject(workspace);
    expect(result.files.map((file) => file.path)).toEqual([".nyzhiignore", "node_modules/pkg/index.js"]);
  });

  it("never enters .git", async () => {
    write(workspace, { ".git/config": "[core]\n", "a.ts": "x\n", ".gitignore": "!.git/\n" });
    const result = await walkProject(workspace, { source: "filesystem" });
    expect(result.files.map((file) => file.path)).toEqual([".gitignore", "a.ts"]);
  });

  it("skips a 5 MB file and binaries with a count", async () => {
    write(workspace, {
      "small.ts": "export const small = true;\n",
      "huge.ts": "x".repeat(5 * 1024 * 1024),
      "image.png": "not even binary content, but a binary extension",
      "data.txt": Buffer.from([0x68, 0x69, 0x00, 0x01]),
    });
    const result = await walkProject(workspace);
    expect(result.files).toEqual([
      expect.objectContaining({ path: "small.ts", absolutePath: join(workspace, "small.ts"), size: 27 }),
    ]);
    expect(result.files[0]?.mtimeMs).toBeGreaterThan(0);
    expect(result.skipped).toEqual({ ignored: 0, tooLarge: 1, binary: 2, outsideRoot: 0 });
  });

  it("takes a smaller size cap", async () => {
    write(workspace, { "a.ts": "x".repeat(100), "b.ts": "x".repeat(101) });
    const result = await walkProject(workspace, { maxFileBytes: 100 });
    expect(result.files.map((file) => file.path)).toEqual(["a.ts"]);
    expect(result.skipped.tooLarge).toBe(1);
  });

  describe.each(["filesystem", "git"] as const)("symbolic links (%s)", (source) => {
    it.skipIf(source === "git" && !hasGit)(
      "follows links to files inside only, and never loops",
      async () => {
        const project = join(workspace, "project");
        write(workspace, { "outside/secret.ts": "outside\n", "project/src/real.ts": "inside\n" });
        symlinkSync(join(workspace, "outside/secret.ts"), join(project, "leak.ts"));
        symlinkSync(join(workspace, "outside"), join(project, "leak-dir"));
        symlinkSync(join(project, "src/real.ts"), join(project, "alias.ts"));
        symlinkSync(project, join(project, "src/loop"));
        symlinkSync(join(project, "missing.ts"), join(project, "dangling.ts"));
        if (source === "git") gitInit(project);
        const result = await walkProject(project);
        expect(result.source).toBe(source);
        expect(result.files.map((file) => file.path)).toEqual(["alias.ts", "src/real.ts"]);
        expect(result.skipped).toEqual({ ignored: 0, tooLarge: 0, binary: 0, outsideRoot: 2 });
      },
    );
  });

  describe.each(["filesystem", "git"] as const)("index.exclude with a slash (%s)", (source) => {
    it.skipIf(source === "git" && !hasGit)(
      "anchors the pattern at the root, where a pattern without one matches at any depth",
      async () => {
        write(workspace, {
          "src/generated/api.ts": "generated\n",
          "src/generated/deep/types.ts": "generated\n",
          "src/main.ts": "kept\n",
          "lib/src/generated/api.ts": "not at the root: kept\n",
          "docs/intro.md": "excluded\n",
          "docs/guide/setup.md": "one level deeper than docs/*.md: kept\n",
          "other/docs/intro.md": "not at the root: kept\n",
          "test/fixtures/data.json": "excluded by **/fixtures/**\n",
          "a/b/c.snap": "excluded by a name\n",
        });
        if (source === "git") gitInit(workspace);
        const result = await walkProject(workspace, {
          exclude: ["src/generated/**", "docs/*.md", "**/fixtures/**", "*.snap"],
        });
        expect(result.source).toBe(source);
        expect(result.files.map((file) => file.path)).toEqual([
          "docs/guide/setup.md",
          "lib/src/generated/api.ts",
          "other/docs/intro.md",
          "src/main.ts",
        ]);
      },
    );
  });

  it("does not read the first bytes of a file the caller knows as text at that size and time", async () => {
    write(workspace, { "known.txt": Buffer.from([0x68, 0x00]), "new.txt": Buffer.from([0x68, 0x00]) });
    const asked: string[] = [];
    const result = await walkProject(workspace, {
      knownText: (path, size, mtimeMs) => {
        asked.push(path);
        return path === "known.txt" && size === 2 && mtimeMs > 0;
      },
    });
    expect(result.files.map((file) => file.path)).toEqual(["known.txt"]);
    expect(result.skipped.binary).toBe(1);
    expect(asked.sort()).toEqual(["known.txt", "new.txt"]);
  });

  it("applies an ignore file's new rules on the next walk", async () => {
    write(workspace, { ".gitignore": "*.log\n", "a.log": "x\n", "b.ts": "x\n" });
    const first = await walkProject(workspace, { source: "filesystem" });
    expect(first.files.map((file) => file.path)).toEqual([".gitignore", "b.ts"]);
    write(workspace, { ".gitignore": "*.ts\n" });
    const second = await walkProject(workspace, { source: "filesystem" });
    expect(second.files.map((file) => file.path)).toEqual([".gitignore", "a.log"]);
  });

  it("names a missing root in a typed error", async () => {
    const missing = join(workspace, "nope");
    await expect(walkProject(missing)).rejects.toBeInstanceOf(IndexRootError);
    await expect(walkProject(missing)).rejects.toThrow(missing);
  });

  it("stops when its signal is aborted", async () => {
    write(workspace, { "a.ts": "x\n" });
    const controller = new AbortController();
    controller.abort();
    await expect(walkProject(workspace, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
