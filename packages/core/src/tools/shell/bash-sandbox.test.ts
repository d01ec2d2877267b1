import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type BwrapStatus, detectBwrap } from "../../engines/sandbox/detect-bwrap.js";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import type { SandboxSettings } from "../../engines/sandbox/sandbox-settings.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { createBashTool } from "./bash.js";

const status: BwrapStatus = await detectBwrap();
const skipReason = status.available ? "" : `bubblewrap ${status.reason}: ${status.detail}`;
if (skipReason) console.warn(`Skipping bubblewrap tests: ${skipReason}`);

let test: TestContext;
/** A directory outside the workspace and outside /tmp (which the sandbox replaces with a tmpfs). */
let outside: string;

async function contextFor(
  level: SandboxSettings["level"],
  options: { allowNetwork?: boolean; denyPaths?: string[] } = {},
) {
  test = await createTestContext();
  const settings: SandboxSettings = {
    level,
    roots: [test.cwd],
    allowNetwork: options.allowNetwork ?? false,
    ...(options.denyPaths ? { denyPaths: options.denyPaths } : {}),
  };
  test.context.services = { sandbox: settings };
  test.context.paths = createPathGuard({ level, roots: [test.cwd], cwd: test.cwd });
  return test;
}

beforeAll(async () => {
  outside = await mkdtemp("/var/tmp/nyzhi-outside-");
});
afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});
afterEach(async () => {
  await test?.cleanup();
});

describe.skipIf(!status.available)("bash under bubblewrap", () => {
  it("workspace-write: writes inside the workspace and its private /tmp, nowhere else", async () => {
    await contextFor("workspace-write");
    const bash = createBashTool();
    const hostTmpMarker = `/tmp/nyzhi-private-${process.pid}-${Date.now()}`;
    const result = await bash.run(
      {
        command: [
          "touch inside.txt && echo inside-ok",
          `touch ${outside}/escape.txt || echo outside-refused`,
          `touch /tmp/../var/tmp/$(basename ${outside})/dotdot.txt || echo dotdot-refused`,
          `touch ${hostTmpMarker} && echo tmp-ok`,
        ].join("; "),
      },
      test.context,
    );
    expect(result.metadata).toMatchObject({ sandboxed: true });
    expect(result.output).toContain("inside-ok");
    expect(result.output).toContain("outside-refused");
    expect(result.output).toContain("dotdot-refused");
    expect(result.output).toContain("tmp-ok");
    expect(existsSync(join(test.cwd, "inside.txt"))).toBe(true);
    expect(existsSync(join(outside, "escape.txt"))).toBe(false);
    expect(existsSync(join(outside, "dotdot.txt"))).toBe(false);
    expect(existsSync(hostTmpMarker)).toBe(false);
  });

  it("read-only: cannot write in the workspace either, but can read it", async () => {
    await contextFor("read-only");
    await writeFile(join(test.cwd, "existing.txt"), "content\n");
    const result = await createBashTool().run(
      {
        command:
          "cat existing.txt; touch new.txt || echo refused; echo more >> existing.txt || echo append-refused",
      },
      test.context,
    );
    expect(result.output).toContain("content");
    expect(result.output).toContain("refused");
    expect(result.output).toContain("append-refused");
    expect(existsSync(join(test.cwd, "new.txt"))).toBe(false);
    expect(readFileSync(join(test.cwd, "existing.txt"), "utf8")).toBe("content\n");
  });

  describe("network", () => {
    let server: Server;
    let port: number;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections++;
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const probe = () =>
      `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo no-network`;

    it("is off by default: a loopback port the host listens on is unreachable", async () => {
      await contextFor("workspace-write");
      const before = connections;
      const result = await createBashTool().run({ command: probe() }, test.context);
      expect(result.output).toBe("no-network");
      expect(connections).toBe(before);
    });

    it("is on when the settings allow it", async () => {
      await contextFor("workspace-write", { allowNetwork: true });
      const result = await createBashTool().run({ command: probe() }, test.context);
      expect(result.output).toBe("connected");
    });
  });

  describe("deny_paths", () => {
    /** A home outside /tmp (the sandbox's private /tmp would hide one inside it anyway). */
    let home: string;
    const KEY = "PRIVATE-KEY-MARKER";
    const DOTENV = "DOTENV-MARKER";
    // Each names the denied file in a way an operand check cannot see (or could not before).
    const commands = [
      "cat ~/.ssh/id_rsa",
      'cat "$HOME/.ssh/id_rsa"',
      "cat $(printf ~/.s; printf sh/id_rsa)",
      "cat $(printf .e; printf nv)",
      "cat sub/$(printf .e; printf nv)",
      "ls -a ~/.ssh",
    ].join("; ");

    beforeAll(async () => {
      home = await realpath(await mkdtemp("/var/tmp/nyzhi-home-"));
      await mkdir(join(home, ".ssh"));
      await writeFile(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
      await writeFile(join(home, "visible.txt"), "home-visible\n");
    });
    afterAll(async () => {
      await rm(home, { recursive: true, force: true });
    });
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    async function run(level: SandboxSettings["level"], denyPaths: string[]) {
      vi.stubEnv("HOME", home);
      await contextFor(level, { denyPaths });
      await mkdir(join(test.cwd, "sub"));
      await writeFile(join(test.cwd, ".env"), `${DOTENV}\n`);
      await writeFile(join(test.cwd, "sub", ".env"), `${DOTENV}\n`);
      return createBashTool().run({ command: `${commands}; cat ~/visible.txt` }, test.context);
    }

    it("without deny_paths the secrets are readable (the control: home and workspace are visible)", async () => {
      const result = await run("workspace-write", []);
      expect(result.output).toContain(KEY);
      expect(result.output).toContain(DOTENV);
      expect(result.output).toContain("id_rsa");
    });

    it.each(["workspace-write", "read-only"] as const)(
      "%s: a denied file or directory is hidden however the command names it",
      async (level) => {
        const result = await run(level, ["~/.ssh", ".env"]);
        expect(result.metadata).toMatchObject({ sandboxed: true });
        expect(result.output).not.toContain(KEY);
        expect(result.output).not.toContain(DOTENV);
        expect(result.output).not.toContain("id_rsa\n");
        expect(result.output).toContain("home-visible");
        // The files themselves are untouched.
        expect(readFileSync(join(home, ".ssh", "id_rsa"), "utf8")).toBe(`${KEY}\n`);
        expect(readFileSync(join(test.cwd, ".env"), "utf8")).toBe(`${DOTENV}\n`);
      },
    );
  });

  it("abort kills every process in the sandbox, including ones that left the process group", async () => {
    await contextFor("workspace-write");
    const marker = `30.${process.pid}${Date.now() % 1000}`;
    const running = createBashTool().run(
      { command: `setsid sleep ${marker} & sleep ${marker} & echo started; wait` },
      test.context,
    );
    const sleepers = () => findProcesses(`sleep${"\0"}${marker}`);
    const deadline = Date.now() + 3000;
    while (sleepers().length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sleepers()).toHaveLength(2);
    const abortedAt = Date.now();
    test.controller.abort();
    const result = await running;
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(result.metadata).toMatchObject({ aborted: true, sandboxed: true });
    const goneBy = Date.now() + 3000;
    while (sleepers().length > 0 && Date.now() < goneBy)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sleepers()).toEqual([]);
  });
});

it.runIf(!status.available)(`bubblewrap tests skipped: ${skipReason}`, () => {
  expect(status.available).toBe(false);
});

/** Live (non-zombie) processes whose NUL-separated command line contains `needle`. */
function findProcesses(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
      if (cmdline.includes(needle) && state !== "Z") found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
