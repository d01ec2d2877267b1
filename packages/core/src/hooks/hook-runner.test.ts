import type { Logger } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { type HookLogger, shellQuote } from "./hook-runner.js";
import { createHookSandbox, type HookSandbox, hookConfig } from "./testing/hook-sandbox.js";

let sandbox: HookSandbox;
beforeEach(async () => {
  sandbox = await createHookSandbox();
});
afterEach(async () => {
  await sandbox.cleanup();
});

describe("HookRunner.run", () => {
  it("runs matching hooks one at a time in config order", async () => {
    const runner = sandbox.runner([
      hookConfig("notification", { command: "echo first >> order.txt" }),
      hookConfig("after_turn", { command: "echo other-event >> order.txt" }),
      hookConfig("notification", { command: "sleep 0.2; echo second >> order.txt" }),
      hookConfig("notification", { command: "echo third >> order.txt" }),
    ]);
    const results = await runner.run("notification", { message: "hi" });
    expect(results.map((result) => result.command)).toEqual([
      "echo first >> order.txt",
      "sleep 0.2; echo second >> order.txt",
      "echo third >> order.txt",
    ]);
    expect(await sandbox.readText("order.txt")).toBe("first\nsecond\nthird\n");
  });

  it("returns a whole result per hook and reports it to the sink", async () => {
    const hook = hookConfig("notification", { command: "echo out; echo err >&2; exit 4" });
    const [result] = await sandbox.runner([hook]).run("notification", { message: "hi" });
    expect(result).toEqual({
      event: "notification",
      hook,
      command: "echo out; echo err >&2; exit 4",
      status: "failed",
      exitCode: 4,
      stdout: "out\n",
      stderr: "err\n",
      output: "out\nerr\n",
      durationMs: expect.any(Number),
      summary: "[hook] echo out; echo err >&2; exit 4 (exit 4)\nout\nerr",
    });
    expect(sandbox.reported).toEqual([result]);
  });

  it("never throws for a failing hook and logs it", async () => {
    const runner = sandbox.runner([
      hookConfig("notification", { command: "exit 9" }),
      hookConfig("notification", { command: "definitely-not-a-command-xyz" }),
      hookConfig("notification", { command: "true" }),
    ]);
    const results = await runner.run("notification", { message: "hi" });
    expect(results.map((result) => [result.status, result.exitCode])).toEqual([
      ["failed", 9],
      ["failed", 127],
      ["ok", 0],
    ]);
    expect(sandbox.logged.map((line) => [line.level, line.message])).toEqual([
      ["warn", "hook did not succeed"],
      ["warn", "hook did not succeed"],
      ["debug", "hook ran"],
    ]);
    expect(sandbox.logged[0]?.details).toMatchObject({
      event: "notification",
      command: "exit 9",
      exitCode: 9,
    });
  });

  it("returns no results and runs nothing when no hook matches", async () => {
    const runner = sandbox.runner([hookConfig("after_turn", { command: "touch ran" })]);
    expect(await runner.run("notification", { message: "hi" })).toEqual([]);
    expect(runner.has("notification")).toBe(false);
    expect(runner.has("after_turn")).toBe(true);
  });

  it("times a hook out after its timeout, kills it and says so", async () => {
    const runner = sandbox.runner([
      hookConfig("notification", { command: "echo waiting; sleep 30", timeout: 1 }),
    ]);
    const startedAt = Date.now();
    const [result] = await runner.run("notification", { message: "hi" });
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(result?.status).toBe("timed_out");
    expect(result?.summary).toBe("[hook] echo waiting; sleep 30 (timed out)\nwaiting");
  });

  it("substitutes {file} once per matching file, quoted when needed", async () => {
    const runner = sandbox.runner([
      hookConfig("after_edit", { command: "printf '%s\\n' {file} >> files.txt", pattern: "*.ts" }),
    ]);
    const files = [`${sandbox.dir}/a.ts`, `${sandbox.dir}/b.md`, `${sandbox.dir}/it's here.ts`];
    const results = await runner.run(
      "after_edit",
      { tool_name: "write", file: files[2] ?? "", files },
      { files },
    );
    expect(results).toHaveLength(2);
    expect(await sandbox.readText("files.txt")).toBe(`${files[0]}\n${files[2]}\n`);
  });
});

describe("hook types", () => {
  it("prompt hook without a command succeeds with its prompt as output", async () => {
    const runner = sandbox.runner([
      hookConfig("after_turn", { hook_type: "prompt", prompt: "Check the tests." }),
    ]);
    const [result] = await runner.run("after_turn", { turn_id: "t1", reason: "completed", steps: 1 });
    expect(result).toMatchObject({
      status: "ok",
      exitCode: 0,
      command: "",
      output: "Check the tests.",
      summary: "[hook] prompt hook (ok)\nCheck the tests.",
    });
  });

  it("prompt hook with a command shows the prompt, a blank line and the stdout", async () => {
    const runner = sandbox.runner([
      hookConfig("after_turn", { hook_type: "prompt", prompt: "Lint says:", command: "printf ok" }),
    ]);
    const [result] = await runner.run("after_turn", { turn_id: "t1", reason: "completed", steps: 1 });
    expect(result).toMatchObject({ status: "ok", stdout: "ok", output: "Lint says:\n\nok" });
  });

  it("prompt hook falls back to instructions, and with neither just runs the command", async () => {
    const runner = sandbox.runner([
      hookConfig("notification", { hook_type: "prompt", instructions: "From instructions" }),
      hookConfig("notification", { hook_type: "prompt", command: "printf plain" }),
      hookConfig("notification", { hook_type: "prompt" }),
    ]);
    const results = await runner.run("notification", { message: "hi" });
    expect(results.map((result) => [result.status, result.output])).toEqual([
      ["ok", "From instructions"],
      ["ok", "plain"],
      ["ok", ""],
    ]);
  });

  it("agent hook shows its instructions with the stdout under Context:", async () => {
    const runner = sandbox.runner([
      hookConfig("notification", {
        hook_type: "agent",
        instructions: "Review the diff.",
        prompt: "ignored",
        command: "printf 'diff here'",
      }),
      hookConfig("notification", { hook_type: "agent", prompt: "Only a prompt." }),
    ]);
    const results = await runner.run("notification", { message: "hi" });
    expect(results.map((result) => result.output)).toEqual([
      "Review the diff.\n\nContext:\ndiff here",
      "Only a prompt.",
    ]);
  });

  it("agent hook with neither instructions nor a command fails closed", async () => {
    const runner = sandbox.runner([hookConfig("notification", { hook_type: "agent" })]);
    const [result] = await runner.run("notification", { message: "hi" });
    expect(result).toMatchObject({
      status: "failed",
      exitCode: 1,
      stderr: "hook_type=agent requires 'instructions' or 'prompt' field",
    });
    expect(result?.summary).toContain("requires");
  });

  it("agent hook with only a command just runs it", async () => {
    const runner = sandbox.runner([
      hookConfig("notification", { hook_type: "agent", command: "printf raw" }),
    ]);
    const [result] = await runner.run("notification", { message: "hi" });
    expect(result).toMatchObject({ status: "ok", output: "raw" });
  });
});

describe("HookLogger", () => {
  it("accepts the shared pino logger", () => {
    expectTypeOf<Logger>().toExtend<HookLogger>();
  });
});

describe("shellQuote", () => {
  it("leaves plain paths and quotes the rest", () => {
    expect(shellQuote("/a/b-c_d.ts")).toBe("/a/b-c_d.ts");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
