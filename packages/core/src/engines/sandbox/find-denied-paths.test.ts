import { mkdir, mkdtemp, realpath, rm, rmdir, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeniedPathsCache, findDeniedPaths } from "./find-denied-paths.js";

let workspace: string;
/** Outside /tmp: masks under /tmp are left out (the sandbox's private /tmp hides them already). */
let home: string;

async function files(base: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    if (!path.endsWith("/")) await writeFile(join(base, path), "x");
  }
}

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-deny-ws-")));
  home = await realpath(await mkdtemp("/var/tmp/nyzhi-deny-home-"));
  vi.stubEnv("HOME", home);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(workspace, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe("findDeniedPaths", () => {
  it("finds every existing match of the three pattern shapes, directories whole", async () => {
    await files(workspace, [
      ".env",
      "app/deep/er/.env",
      "app/src/index.ts",
      "node_modules/pkg/.env",
      "certs/server.pem",
      "secrets/a.txt",
      "secrets/nested/.env",
      "config/prod/db.toml",
      "config/dev/db.toml",
    ]);
    await files(home, [".ssh/id_rsa", ".netrc", "projects/other/.env", "keys/outside.key"]);
    const found = findDeniedPaths({
      patterns: [".env", "*.pem", "secrets", "config/prod/**", "~/.ssh", `${home}/keys/*.key`, ".netrc"],
      roots: [workspace],
      home,
    });
    expect(found).toEqual({
      complete: true,
      paths: [
        { path: join(home, ".netrc"), kind: "file" },
        { path: join(home, ".ssh"), kind: "directory" },
        { path: join(home, "keys/outside.key"), kind: "file" },
        { path: join(workspace, ".env"), kind: "file" },
        { path: join(workspace, "app/deep/er/.env"), kind: "file" },
        { path: join(workspace, "certs/server.pem"), kind: "file" },
        { path: join(workspace, "config/prod"), kind: "directory" },
        { path: join(workspace, "secrets"), kind: "directory" },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    });
  });

  it("leaves out what a masked directory holds, whatever sorts between them", async () => {
    await files(workspace, ["secrets/inner.pem", "secrets-old.pem", "node_modules/pkg/.env"]);
    const found = findDeniedPaths({
      patterns: ["secrets", "*.pem", `${workspace}/node_modules/pkg/.env`],
      roots: [workspace],
      home,
    });
    expect(found.paths).toEqual([
      { path: join(workspace, "node_modules/pkg/.env"), kind: "file" },
      { path: join(workspace, "secrets"), kind: "directory" },
      { path: join(workspace, "secrets-old.pem"), kind: "file" },
    ]);
  });

  it("follows a symlink that matches to what it names, and skips a dangling one", async () => {
    await files(home, ["vault/prod.env"]);
    await symlink(join(home, "vault/prod.env"), join(workspace, ".env"));
    await symlink(join(home, "missing"), join(workspace, "other.pem"));
    const found = findDeniedPaths({ patterns: [".env", "*.pem"], roots: [workspace], home });
    expect(found.paths).toEqual([{ path: join(home, "vault/prod.env"), kind: "file" }]);
  });

  it("never masks a root, the working directory or what contains them, nor paths under /tmp", async () => {
    await files(workspace, ["secrets/work/file.txt"]);
    const cwd = join(workspace, "secrets/work");
    const found = findDeniedPaths({
      patterns: ["secrets", workspace, "/tmp/**"],
      roots: [workspace],
      keepVisible: [cwd],
      home,
    });
    expect(found.paths).toEqual([]);
  });

  it("says when a limit cut the search short", async () => {
    await files(workspace, ["a/b/c/d/.env", "e/1", "e/2", "e/3", "e/4"]);
    expect(findDeniedPaths({ patterns: [".env"], roots: [workspace], home, maxDepth: 3 })).toEqual({
      paths: [],
      complete: false,
    });
    expect(findDeniedPaths({ patterns: [".env"], roots: [workspace], home, maxEntries: 4 }).complete).toBe(
      false,
    );
    expect(findDeniedPaths({ patterns: [".env"], roots: [workspace], home })).toEqual({
      paths: [{ path: join(workspace, "a/b/c/d/.env"), kind: "file" }],
      complete: true,
    });
  });
});

describe("DeniedPathsCache", () => {
  it("reuses the last search until a watched directory's listing changes", async () => {
    await files(workspace, [".env", "app/src/index.ts"]);
    const cache = new DeniedPathsCache();
    const options = { patterns: [".env", "~/.ssh"], roots: [workspace], home };
    const first = cache.find(options);
    expect(first.paths).toEqual([{ path: join(workspace, ".env"), kind: "file" }]);
    expect(cache.find(options).paths).toBe(first.paths);

    // Created and removed again (a sandbox mount point): same listing, no new search.
    await mkdir(join(workspace, ".nyzhi"));
    await rmdir(join(workspace, ".nyzhi"));
    expect(cache.find(options).paths).toBe(first.paths);

    await writeFile(join(workspace, "app/src/.env"), "x");
    expect(cache.find(options).paths).toEqual([
      { path: join(workspace, ".env"), kind: "file" },
      { path: join(workspace, "app/src/.env"), kind: "file" },
    ]);
    await files(home, [".ssh/id_rsa"]);
    expect(cache.find(options).paths).toContainEqual({ path: join(home, ".ssh"), kind: "directory" });
    expect(cache.find({ ...options, patterns: [".env"] }).paths).toHaveLength(2);
  });
});
