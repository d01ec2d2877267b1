import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BwrapStatus, detectBwrap } from "../../engines/sandbox/detect-bwrap.js";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import type { SandboxSettings } from "../../engines/sandbox/sandbox-settings.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { createBashTool } from "./bash.js";
import { SHELL_ENVIRONMENT_SERVICE, type ShellEnvironmentSettings } from "./command-environment.js";
import { BWRAP_MISSING_NOTICE } from "./prepare-command-sandbox.js";
import { withStartupCommands } from "./startup-commands.js";
import { createVerifyTool } from "./verify.js";

const missing = async (): Promise<BwrapStatus> => ({ available: false, reason: "missing", detail: "test" });
const bwrap = await detectBwrap();

let test: TestContext;
afterEach(async () => {
  await test?.cleanup();
});

async function contextWith(startupCommands: string[], level: SandboxSettings["level"] = "workspace-write") {
  test = await createTestContext();
  const environment: ShellEnvironmentSettings = {
    passthrough: [],
    set: {},
    secretValues: [],
    startupCommands,
  };
  const sandbox: SandboxSettings = { level, roots: [test.cwd], allowNetwork: false };
  test.context.services = { sandbox, [SHELL_ENVIRONMENT_SERVICE]: environment };
  test.context.paths = createPathGuard({ level, roots: [test.cwd], cwd: test.cwd });
  await mkdir(join(test.cwd, "sub"));
  return test.context;
}

describe("withStartupCommands", () => {
  it("leaves a command alone when there are none", () => {
    expect(withStartupCommands("ls", [])).toBe("ls");
    expect(withStartupCommands("ls", ["  "])).toBe("ls");
  });
});

describe("shell.startup_commands in bash", () => {
  it("runs them first in the same shell: variables, functions and the directory carry over; their output does not", async () => {
    const context = await contextWith([
      "export GREETING=hello  # a trailing comment",
      'greet() { echo "$GREETING from $(basename "$PWD")"; }',
      "cd sub && echo setup-noise",
    ]);
    const result = await createBashTool({ detectSandbox: missing }).run({ command: "greet" }, context);
    expect(result.output).toBe(`Note: ${BWRAP_MISSING_NOTICE}.\nhello from sub`);
  });

  it("does not run the command when one fails, and says which one", async () => {
    const context = await contextWith(["true", "sh -c 'echo broken >&2; exit 3'", "echo never"]);
    const result = await createBashTool({ detectSandbox: missing }).run(
      { command: "echo the-command-ran" },
      context,
    );
    expect(result.output).not.toContain("the-command-ran");
    expect(result.output).not.toContain("never");
    expect(result.output).toContain("broken");
    expect(result.output).toContain(
      "nyzhi: shell.startup_commands[1] failed (exit 3); the command did not run",
    );
    expect(result.metadata).toMatchObject({ exitCode: 3 });
  });

  it.skipIf(!bwrap.available)("runs them inside bubblewrap too, and before each verify check", async () => {
    const context = await contextWith(["export MARK=startup-ran"]);
    const bash = await createBashTool().run({ command: "echo $MARK" }, context);
    expect(bash.metadata).toMatchObject({ sandboxed: true });
    expect(bash.output).toBe("startup-ran");
    const verify = await createVerifyTool().run(
      { checks: [{ kind: "env", command: 'test "$MARK" = startup-ran' }] },
      context,
    );
    expect(verify.output).toContain("[PASS] env");
  });
});
