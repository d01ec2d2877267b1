import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { blockedDotfiles, hiddenPathMounts, shellSandboxPaths } from "./blocked-dotfiles.js";
import { buildBwrapCommand } from "./build-bwrap-command.js";
import { createPathGuard } from "./path-guard.js";

let base: string;
let home: string;
let workspace: string;
let extra: string;

beforeEach(async () => {
  // Not under /tmp: the sandbox's /tmp is a private tmpfs, so nothing there is masked.
  base = await realpath(
    await mkdtemp(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "nyzhi-dotfiles-")),
  );
  home = join(base, "home");
  workspace = join(base, "workspace");
  extra = join(base, "extra");
  for (const directory of [
    workspace,
    extra,
    join(home, ".ssh"),
    join(home, ".aws"),
    join(home, ".config", "gh"),
  ]) {
    await mkdir(directory, { recursive: true });
  }
  await writeFile(join(home, ".ssh", "id_ed25519"), "private key");
  await writeFile(join(home, ".ssh", "known_hosts"), "github.com ssh-ed25519 AAAA");
  await writeFile(join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = x");
  await writeFile(join(home, ".netrc"), "machine example.com password x");
  await writeFile(join(home, ".gitconfig"), "[user]\nname = me");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function pathsFor(
  settings: { allow_read?: string[]; allow_write?: string[]; block_dotfiles?: boolean } = {},
) {
  return shellSandboxPaths(
    {
      allow_read: settings.allow_read ?? [],
      allow_write: settings.allow_write ?? [],
      block_dotfiles: settings.block_dotfiles ?? true,
    },
    { home, projectRoot: workspace, authFile: join(base, "nyzhi-data", "auth.json") },
  );
}

function guardFor(level: "read-only" | "workspace-write", paths = pathsFor(), denyPaths: string[] = []) {
  return createPathGuard({ level, roots: [workspace], cwd: workspace, denyPaths, ...paths });
}

describe("blockedDotfiles", () => {
  it("lists the credential stores under home and nyzhi's auth file, and nothing when turned off", () => {
    const blocked = pathsFor().blockedPaths;
    for (const entry of [".ssh", ".aws", ".gnupg", ".config/gh", ".netrc", ".docker/config.json"]) {
      expect(blocked).toContain(join(home, entry));
    }
    expect(blocked).toContain(join(base, "nyzhi-data", "auth.json"));
    expect(blocked).not.toContain(join(home, ".gitconfig"));
    expect(pathsFor({ block_dotfiles: false }).blockedPaths).toEqual([]);
  });

  it("drops an entry that an allowed path is or contains, and keeps one that merely contains an allowed path", () => {
    const blocked = blockedDotfiles({
      enabled: true,
      home,
      allowed: [join(home, ".config", "gh"), join(home, ".ssh", "known_hosts")],
    });
    expect(blocked).not.toContain(join(home, ".config", "gh"));
    expect(blocked).toContain(join(home, ".ssh"));
    expect(blockedDotfiles({ enabled: true, home, allowed: [home] })).toEqual([]);
  });

  it("expands ~ and project-relative paths, and counts allow_write as readable", () => {
    const paths = pathsFor({ allow_read: ["~/.aws"], allow_write: ["../extra", "~/.config/gh"] });
    expect(paths.allowWrite).toEqual([extra, join(home, ".config", "gh")]);
    expect(paths.allowRead).toEqual([join(home, ".aws"), extra, join(home, ".config", "gh")]);
    expect(paths.blockedPaths).not.toContain(join(home, ".aws"));
    expect(paths.blockedPaths).not.toContain(join(home, ".config", "gh"));
  });
});

describe("createPathGuard with block_dotfiles, allow_read and allow_write", () => {
  it("refuses reads and writes in a blocked path, naming the setting and how to allow it", async () => {
    const guard = guardFor("workspace-write");
    const credentials = join(home, ".aws", "credentials");
    await expect(guard.resolve(credentials, "read")).rejects.toThrow(
      `Access to ${credentials} is blocked by shell.sandbox.block_dotfiles (${join(home, ".aws")} holds credentials); list it in shell.sandbox.allow_read to allow it.`,
    );
    await expect(guard.resolve(join(home, ".ssh"), "read")).rejects.toThrow("block_dotfiles");
    await expect(guard.resolve(join(home, ".netrc"), "read")).rejects.toThrow("block_dotfiles");
    expect(await guard.resolve(join(home, ".gitconfig"), "read")).toBe(join(home, ".gitconfig"));
  });

  it("refuses a symlink in the workspace that points into a blocked path", async () => {
    await symlink(join(home, ".aws", "credentials"), join(workspace, "creds"));
    await expect(guardFor("workspace-write").resolve("creds", "read")).rejects.toThrow("block_dotfiles");
  });

  it("reads everything with block_dotfiles off, and an allow_read path (only that one) with it on", async () => {
    const credentials = join(home, ".aws", "credentials");
    expect(
      await guardFor("workspace-write", pathsFor({ block_dotfiles: false })).resolve(credentials, "read"),
    ).toBe(credentials);
    const guard = guardFor("workspace-write", pathsFor({ allow_read: ["~/.ssh/known_hosts"] }));
    expect(await guard.resolve(join(home, ".ssh", "known_hosts"), "read")).toBe(
      join(home, ".ssh", "known_hosts"),
    );
    await expect(guard.resolve(join(home, ".ssh", "id_ed25519"), "read")).rejects.toThrow("block_dotfiles");
  });

  it("never lets allow_read through a deny_paths rule", async () => {
    const guard = guardFor("workspace-write", pathsFor({ allow_read: ["~/.aws"] }), ["credentials"]);
    await expect(guard.resolve(join(home, ".aws", "credentials"), "read")).rejects.toThrow("deny_paths");
  });

  it("writes in an allow_write path under workspace-write only", async () => {
    const paths = pathsFor({ allow_write: [extra] });
    const target = join(extra, "out.txt");
    expect(await guardFor("workspace-write", paths).resolve(target, "write")).toBe(target);
    await expect(guardFor("workspace-write").resolve(target, "write")).rejects.toThrow(
      "outside the workspace",
    );
    await expect(guardFor("read-only", paths).resolve(target, "write")).rejects.toThrow("read-only");
  });
});

describe("hiddenPathMounts and the bubblewrap argv", () => {
  it("masks the existing blocked paths, binds allowed paths inside them back, and masks deny matches again", () => {
    const paths = pathsFor({ allow_read: ["~/.ssh"] });
    const mounts = hiddenPathMounts({
      denied: [{ path: join(home, ".ssh", "id_ed25519"), kind: "file" }],
      blocked: pathsFor({ allow_read: ["~/.ssh/known_hosts", "~/.ssh/id_ed25519"] }).blockedPaths,
      allowed: [join(home, ".ssh", "known_hosts"), join(home, ".ssh", "id_ed25519"), join(home, "missing")],
      writable: [],
      keepVisible: [workspace],
    });
    expect(paths.blockedPaths).not.toContain(join(home, ".ssh"));
    expect(mounts).toEqual({
      masks: [
        { path: join(home, ".aws"), kind: "directory" },
        { path: join(home, ".config", "gh"), kind: "directory" },
        { path: join(home, ".netrc"), kind: "file" },
        { path: join(home, ".ssh"), kind: "directory" },
      ],
      // id_ed25519 is denied: it stays hidden although allowed.
      reveal: [{ path: join(home, ".ssh", "known_hosts"), writable: false }],
    });
    const argv = buildBwrapCommand({
      level: "workspace-write",
      roots: [workspace],
      allowNetwork: false,
      cwd: workspace,
      command: ["true"],
      allowWrite: [extra],
      ...mounts,
    });
    const joined = argv.join(" ");
    expect(joined).toContain(`--bind ${workspace} ${workspace} --bind-try ${extra} ${extra}`);
    const ssh = join(home, ".ssh");
    const knownHosts = join(ssh, "known_hosts");
    expect(joined).toContain(`--tmpfs ${ssh} --ro-bind ${knownHosts} ${knownHosts} --remount-ro ${ssh}`);
  });

  it("leaves under /tmp (private in the sandbox) nothing to mask", () => {
    const mounts = hiddenPathMounts({
      denied: [],
      blocked: ["/tmp"],
      allowed: [],
      writable: [],
      keepVisible: [workspace],
    });
    expect(mounts.masks).toEqual([]);
  });

  it("leaves visible a blocked directory that holds the workspace", async () => {
    const inside = join(home, ".config", "gh", "project");
    await mkdir(inside);
    const mounts = hiddenPathMounts({
      denied: [],
      blocked: [join(home, ".config", "gh"), join(home, ".aws")],
      allowed: [],
      writable: [],
      keepVisible: [inside],
    });
    expect(mounts.masks).toEqual([{ path: join(home, ".aws"), kind: "directory" }]);
  });

  it("binds allow_write paths only under workspace-write", () => {
    const argv = buildBwrapCommand({
      level: "read-only",
      roots: [workspace],
      allowNetwork: false,
      cwd: workspace,
      command: ["true"],
      allowWrite: [extra],
    });
    expect(argv).not.toContain(extra);
  });
});
