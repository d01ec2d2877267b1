import { describe, expect, it } from "vitest";
import { buildBwrapCommand } from "./build-bwrap-command.js";
import { detectBwrap } from "./detect-bwrap.js";
import { SandboxError } from "./sandbox-error.js";

describe("buildBwrapCommand", () => {
  it("read-only: the whole filesystem read-only, fresh /dev and /proc, private /tmp, no network", () => {
    expect(
      buildBwrapCommand({
        level: "read-only",
        roots: ["/tmp/ws"],
        allowNetwork: false,
        cwd: "/tmp/ws/pkg",
        command: ["/bin/bash", "-c", "ls"],
      }),
    ).toEqual([
      "bwrap",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--ro-bind",
      "/tmp/ws",
      "/tmp/ws",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
      "--setenv",
      "TMPDIR",
      "/tmp",
      "--chdir",
      "/tmp/ws/pkg",
      "--",
      "/bin/bash",
      "-c",
      "ls",
    ]);
  });

  it("workspace-write: each root bound writable; network shared when allowed; cwd outside the roots stays visible", () => {
    const argv = buildBwrapCommand({
      level: "workspace-write",
      roots: ["/work/a", "/work/b"],
      allowNetwork: true,
      cwd: "/tmp/elsewhere",
      command: ["sh", "-c", "true"],
      env: { HOME: "/work/a" },
      executable: "/usr/bin/bwrap",
    });
    expect(argv.slice(0, 10)).toEqual([
      "/usr/bin/bwrap",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
    ]);
    expect(argv.slice(10, 19)).toEqual([
      "--bind",
      "/work/a",
      "/work/a",
      "--bind",
      "/work/b",
      "/work/b",
      "--ro-bind-try",
      "/tmp/elsewhere",
      "/tmp/elsewhere",
    ]);
    expect(argv).not.toContain("--unshare-net");
    expect(argv.join(" ")).toContain(
      "--setenv HOME /work/a --setenv TMPDIR /tmp --chdir /tmp/elsewhere -- sh -c true",
    );
  });

  it("masks denied paths after the roots: directories behind a read-only tmpfs, files behind /dev/null", () => {
    const argv = buildBwrapCommand({
      level: "workspace-write",
      roots: ["/work/a"],
      allowNetwork: false,
      cwd: "/work/a",
      command: ["sh", "-c", "true"],
      masks: [
        { path: "/home/me/.ssh", kind: "directory" },
        { path: "/work/a/.env", kind: "file" },
      ],
    });
    expect(argv.slice(10, 23)).toEqual([
      "--bind",
      "/work/a",
      "/work/a",
      "--tmpfs",
      "/home/me/.ssh",
      "--remount-ro",
      "/home/me/.ssh",
      "--ro-bind",
      "/dev/null",
      "/work/a/.env",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
    ]);
  });

  it("refuses to build for full-access", () => {
    expect(() =>
      buildBwrapCommand({ level: "full-access", roots: [], allowNetwork: true, cwd: "/", command: ["true"] }),
    ).toThrow(SandboxError);
  });
});

describe("detectBwrap", () => {
  it("reports a missing executable as missing", async () => {
    const status = await detectBwrap({ executable: "/nonexistent/bwrap" });
    expect(status).toMatchObject({ available: false, reason: "missing" });
  });

  it("caches the probe per executable", () => {
    expect(detectBwrap()).toBe(detectBwrap());
  });
});
