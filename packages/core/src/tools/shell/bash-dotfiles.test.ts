import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { shellSandboxPaths } from "../../engines/sandbox/blocked-dotfiles.js";
import { type BwrapStatus, detectBwrap } from "../../engines/sandbox/detect-bwrap.js";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import type { SandboxSettings } from "../../engines/sandbox/sandbox-settings.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { createBashTool } from "./bash.js";

const status: BwrapStatus = await detectBwrap();
if (!status.available) console.warn(`Skipping block_dotfiles bubblewrap tests: bubblewrap ${status.reason}`);

let test: TestContext;
/** HOME for the commands, outside /tmp (the sandbox's /tmp is a private tmpfs, where it would vanish). */
let home: string;
let extra: string;

beforeEach(async () => {
  const base = await realpath(await mkdtemp("/var/tmp/nyzhi-dotfiles-"));
  home = join(base, "home");
  extra = join(base, "extra");
  await mkdir(join(home, ".aws"), { recursive: true });
  await mkdir(join(home, ".ssh"), { recursive: true });
  await mkdir(extra);
  await writeFile(join(home, ".aws", "credentials"), "aws_secret_access_key = SECRET-AWS\n");
  await writeFile(join(home, ".ssh", "id_ed25519"), "SECRET-SSH\n");
  await writeFile(join(home, ".ssh", "known_hosts"), "github.com KNOWN-HOST\n");
  vi.stubEnv("HOME", home);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await test?.cleanup();
  await rm(join(home, ".."), { recursive: true, force: true });
});

async function run(
  command: string,
  settings: { allow_read?: string[]; allow_write?: string[]; block_dotfiles?: boolean } = {},
) {
  await test?.cleanup();
  test = await createTestContext();
  const paths = shellSandboxPaths(
    {
      allow_read: settings.allow_read ?? [],
      allow_write: settings.allow_write ?? [],
      block_dotfiles: settings.block_dotfiles ?? true,
    },
    { home, projectRoot: test.cwd, authFile: join(test.cwd, ".nyzhi-home", "data", "auth.json") },
  );
  const sandbox: SandboxSettings = {
    level: "workspace-write",
    roots: [test.cwd],
    allowNetwork: false,
    ...paths,
  };
  test.context.services = { sandbox };
  test.context.paths = createPathGuard({
    level: "workspace-write",
    roots: [test.cwd],
    cwd: test.cwd,
    ...paths,
  });
  return createBashTool().run({ command }, test.context);
}

/** Reads the file without naming it, so only the sandbox (not a path check) can stop it. */
const hiddenCat = (relative: string) => `cat "$(printf '%s/' "$HOME")${relative}" 2>&1`;

describe.skipIf(!status.available)("bash under bubblewrap with shell.sandbox", () => {
  it("block_dotfiles (the default) hides ~/.aws and ~/.ssh however a command names them", async () => {
    const result = await run(
      `cat ~/.aws/credentials 2>&1; ${hiddenCat(".ssh/id_ed25519")}; ls -A ~/.ssh | wc -l`,
    );
    expect(result.metadata).toMatchObject({ sandboxed: true });
    expect(result.output).not.toContain("SECRET");
    expect(result.output).toContain("No such file or directory");
    expect(result.output).toMatch(/^0$/m);
  });

  it("block_dotfiles = false shows them", async () => {
    const result = await run(`cat ~/.aws/credentials; ${hiddenCat(".ssh/id_ed25519")}`, {
      block_dotfiles: false,
    });
    expect(result.output).toContain("SECRET-AWS");
    expect(result.output).toContain("SECRET-SSH");
  });

  it("allow_read shows one entry, or one file inside a hidden one", async () => {
    const result = await run(
      `${hiddenCat(".aws/credentials")}; ${hiddenCat(".ssh/known_hosts")}; ${hiddenCat(".ssh/id_ed25519")}; ls ~/.ssh`,
      { allow_read: ["~/.aws", "~/.ssh/known_hosts"] },
    );
    expect(result.output).toContain("SECRET-AWS");
    expect(result.output).toContain("KNOWN-HOST");
    expect(result.output).not.toContain("SECRET-SSH");
    expect(result.output).not.toContain("id_ed25519\n");
  });

  it("allow_write lets a command write an extra directory outside the workspace, and nothing else", async () => {
    const result = await run(
      `echo written > ${extra}/out.txt && echo extra-ok; touch ${home}/elsewhere.txt || echo elsewhere-refused`,
      { allow_write: [extra] },
    );
    expect(result.output).toContain("extra-ok");
    expect(result.output).toContain("elsewhere-refused");
    expect(await readFile(join(extra, "out.txt"), "utf8")).toBe("written\n");
    expect(existsSync(join(home, "elsewhere.txt"))).toBe(false);

    const without = await run(`touch ${extra}/again.txt || echo refused`);
    expect(without.output).toContain("refused");
    expect(existsSync(join(extra, "again.txt"))).toBe(false);
  });
});
