import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPathGuard } from "./path-guard.js";
import { SandboxError } from "./sandbox-error.js";
import { parseSandboxLevel } from "./sandbox-level.js";

let base: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-guard-")));
  workspace = join(base, "workspace");
  outside = join(base, "outside");
  await mkdir(workspace);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "x");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const guardFor = (level: "read-only" | "workspace-write" | "full-access", denyPaths: string[] = []) =>
  createPathGuard({ level, roots: [workspace], cwd: workspace, denyPaths });

describe("createPathGuard under workspace-write", () => {
  it("refuses a ../ escape, naming the real path and the root", async () => {
    const guard = guardFor("workspace-write");
    const attempt = guard.resolve("../outside/new.txt", "write");
    await expect(attempt).rejects.toBeInstanceOf(SandboxError);
    await expect(attempt).rejects.toThrow(
      `Writing ${join(outside, "new.txt")} is not allowed: it is outside the workspace ${workspace}.`,
    );
  });

  it("refuses writing through a symlink inside the workspace that points outside", async () => {
    await symlink(outside, join(workspace, "link"));
    const guard = guardFor("workspace-write");
    await expect(guard.resolve("link/secret.txt", "write")).rejects.toThrow(join(outside, "secret.txt"));
    await expect(guard.resolve("link/brand-new/file.txt", "write")).rejects.toThrow(SandboxError);
  });

  it("refuses writing through a dangling symlink whose target is outside", async () => {
    await symlink(join(outside, "not-yet.txt"), join(workspace, "dangling"));
    await expect(guardFor("workspace-write").resolve("dangling", "write")).rejects.toThrow(
      join(outside, "not-yet.txt"),
    );
  });

  it("allows a new file in a new subdirectory and returns its real path", async () => {
    const guard = guardFor("workspace-write");
    expect(await guard.resolve("a/b/c/new.ts", "write")).toBe(join(workspace, "a/b/c/new.ts"));
    expect(await guard.resolve(join(workspace, "x/../y.txt"), "write")).toBe(join(workspace, "y.txt"));
  });

  it("allows reads outside the workspace", async () => {
    expect(await guardFor("workspace-write").resolve("../outside/secret.txt", "read")).toBe(
      join(outside, "secret.txt"),
    );
  });
});

describe("createPathGuard levels", () => {
  it("read-only refuses every write, even inside the workspace", async () => {
    const guard = guardFor("read-only");
    await expect(guard.resolve("file.txt", "write")).rejects.toThrow("the sandbox is read-only");
    await expect(guard.resolve(".", "write")).rejects.toThrow(SandboxError);
    expect(await guard.resolve("file.txt", "read")).toBe(join(workspace, "file.txt"));
  });

  it("full-access allows writes anywhere", async () => {
    const guard = guardFor("full-access");
    expect(await guard.resolve("../outside/new.txt", "write")).toBe(join(outside, "new.txt"));
  });
});

describe("createPathGuard deny paths", () => {
  it("refuses reads and writes of denied paths at every level, by name at any depth and through symlinks", async () => {
    await writeFile(join(workspace, ".env"), "TOKEN=1");
    await symlink(join(workspace, ".env"), join(workspace, "innocent"));
    const guard = guardFor("full-access", [".env", "keys/**"]);
    await expect(guard.resolve(".env", "read")).rejects.toThrow('deny_paths rule ".env"');
    await expect(guard.resolve("nested/deep/.env", "write")).rejects.toThrow(SandboxError);
    await expect(guard.resolve("innocent", "read")).rejects.toThrow(SandboxError);
    await expect(guard.resolve("keys/id_rsa", "read")).rejects.toThrow('"keys/**"');
    expect(await guard.resolve(".env.example", "read")).toBe(join(workspace, ".env.example"));
  });
});

describe("createPathGuard config files", () => {
  const configGuard = (level: "read-only" | "workspace-write", denyPaths: string[] = []) =>
    createPathGuard({
      level,
      roots: [workspace],
      cwd: workspace,
      denyPaths,
      configDir: join(outside, "config"),
    });

  it("lets a declared config file land in the config dir under workspace-write, and nothing else outside", async () => {
    const guard = configGuard("workspace-write");
    const agents = join(outside, "config", "agents.json");
    expect(await guard.resolve(agents, "write", { configFile: true })).toBe(agents);
    // Not declared as a config file (the `write` tool): refused as before.
    await expect(guard.resolve(agents, "write")).rejects.toThrow("it is outside the workspace");
    // Declared, but outside the config dir (or escaping it with ..): refused.
    await expect(guard.resolve(join(outside, "x.json"), "write", { configFile: true })).rejects.toThrow(
      "it is outside the workspace",
    );
    await expect(
      guard.resolve(join(outside, "config", "..", "y.json"), "write", { configFile: true }),
    ).rejects.toThrow(SandboxError);
  });

  it("refuses a declared config file under read-only and under a deny_paths rule", async () => {
    const agents = join(outside, "config", "agents.json");
    await expect(configGuard("read-only").resolve(agents, "write", { configFile: true })).rejects.toThrow(
      "the sandbox is read-only",
    );
    await expect(
      configGuard("workspace-write", ["agents.json"]).resolve(agents, "write", { configFile: true }),
    ).rejects.toThrow('deny_paths rule "agents.json"');
  });

  it("ignores the declaration when the guard has no config dir", async () => {
    await expect(
      guardFor("workspace-write").resolve(join(outside, "config", "agents.json"), "write", {
        configFile: true,
      }),
    ).rejects.toThrow("it is outside the workspace");
  });
});

describe("parseSandboxLevel", () => {
  it("accepts the levels and their aliases and names the valid spellings otherwise", () => {
    expect(
      ["read-only", "readonly", "workspace", "Workspace-Write", "full", "danger-full-access"].map(
        parseSandboxLevel,
      ),
    ).toEqual(["read-only", "read-only", "workspace-write", "workspace-write", "full-access", "full-access"]);
    expect(() => parseSandboxLevel("yolo")).toThrow(
      'Unknown sandbox level "yolo". Use one of: read-only, workspace-write, full-access, readonly, workspace, full, danger-full-access.',
    );
  });
});
