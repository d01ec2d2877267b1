import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type BwrapStatus, detectBwrap } from "../../engines/sandbox/detect-bwrap.js";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import type { SandboxSettings } from "../../engines/sandbox/sandbox-settings.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { createBashTool } from "./bash.js";
import { findShell } from "./find-shell.js";

const status: BwrapStatus = await detectBwrap();
if (!status.available) console.warn(`Skipping bubblewrap shell tests: bubblewrap ${status.reason}`);

/** A directory under /tmp (private and empty inside bubblewrap) holding a `bash` that is not bash. */
let fakeBin: string;
let test: TestContext | undefined;

beforeEach(async () => {
  fakeBin = await mkdtemp("/tmp/nyzhi-fake-bash-");
  await writeFile(join(fakeBin, "bash"), "#!/bin/sh\necho fake-bash\n");
  await chmod(join(fakeBin, "bash"), 0o755);
  vi.stubEnv("PATH", `${fakeBin}:${process.env.PATH ?? "/usr/bin:/bin"}`);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await test?.cleanup();
  test = undefined;
  await rm(fakeBin, { recursive: true, force: true });
});

describe("findShell", () => {
  it("takes the user's bash from PATH unsandboxed, and one outside /tmp for the sandbox", () => {
    expect(findShell()).toBe(join(fakeBin, "bash"));
    expect(findShell({ sandboxed: true })).toMatch(/^\/(usr\/)?bin\/bash$/);
  });
});

describe.skipIf(!status.available)("bash under bubblewrap with a PATH entry under /tmp", () => {
  async function sandboxedContext() {
    test = await createTestContext();
    const settings: SandboxSettings = { level: "workspace-write", roots: [test.cwd], allowNetwork: false };
    test.context.services = { sandbox: settings };
    test.context.paths = createPathGuard({ level: "workspace-write", roots: [test.cwd], cwd: test.cwd });
    return test.context;
  }

  it("still runs, with a shell that exists inside the sandbox", async () => {
    const result = await createBashTool().run(
      { command: 'echo "$BASH_VERSION" | cut -c1' },
      await sandboxedContext(),
    );
    expect(result.metadata).toMatchObject({ sandboxed: true, exitCode: 0 });
    expect(result.output).toMatch(/^\d$/);
  });

  it("says that a command was not found inside the sandbox, and why", async () => {
    const context = await sandboxedContext();
    const result = await createBashTool().run({ command: "nyzhi-no-such-command-here" }, context);
    expect(result.metadata).toMatchObject({ sandboxed: true, exitCode: 127 });
    expect(result.output).toContain("(exit code 127: command not found inside the sandbox");
    expect(result.output).toContain(`/tmp is private`);
    expect(result.output).toContain(`PATH entries not there: ${fakeBin}`);
  });
});
