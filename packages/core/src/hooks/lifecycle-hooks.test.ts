import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookConfig } from "./hook-types.js";
import { lifecycleHooks } from "./lifecycle-hooks.js";
import { createHookSandbox, type HookSandbox, hookConfig } from "./testing/hook-sandbox.js";

let sandbox: HookSandbox;
beforeEach(async () => {
  sandbox = await createHookSandbox();
});
afterEach(async () => {
  await sandbox.cleanup();
});

const lifecycleFor = (configs: HookConfig[], signal?: AbortSignal) =>
  lifecycleHooks(sandbox.runner(configs), signal ? { sessionId: "s1", signal } : { sessionId: "s1" });

describe("user_prompt_submit", () => {
  it("stops the turn on exit 2 with stderr as the reason", async () => {
    const hooks = lifecycleFor([
      hookConfig("user_prompt_submit", {
        command: `grep -q secret && { echo 'no secrets' >&2; exit 2; }; exit 0`,
      }),
    ]);
    const blocked = await hooks.userPromptSubmit({ prompt: "my secret is 42" });
    expect(blocked.block).toBe("no secrets");
    const allowed = await hooks.userPromptSubmit({ prompt: "hello" });
    expect(allowed.block).toBeUndefined();
    expect(allowed.results).toHaveLength(1);
  });

  it("stops on a block = true failure but not on a plain failure", async () => {
    const blocking = lifecycleFor([hookConfig("user_prompt_submit", { command: "exit 1", block: true })]);
    expect((await blocking.userPromptSubmit({ prompt: "x" })).block).toBe("blocked by hook exit 1");
    const plain = lifecycleFor([hookConfig("user_prompt_submit", { command: "exit 1" })]);
    expect((await plain.userPromptSubmit({ prompt: "x" })).block).toBeUndefined();
  });
});

describe("permission_request", () => {
  const request = { tool_name: "bash", tool_input: { command: "npm test" }, agent_id: "lead", depth: 0 };

  it("takes a JSON allow or deny from the first hook that answers", async () => {
    const allow = lifecycleFor([
      hookConfig("permission_request", { command: "echo thinking" }),
      hookConfig("permission_request", {
        command: `printf '{"decision":"allow","reason":"tests are safe"}'`,
      }),
      hookConfig("permission_request", { command: `printf '{"decision":"deny"}'` }),
    ]);
    expect((await allow.permissionRequest(request)).answer).toEqual({
      decision: "allow",
      reason: "tests are safe",
    });
    const deny = lifecycleFor([
      hookConfig("permission_request", { command: `printf '{"decision":"deny","reason":"no"}'` }),
    ]);
    expect((await deny.permissionRequest(request)).answer).toEqual({ decision: "deny", reason: "no" });
  });

  it("treats exit 2 as deny and leaves the question to the user otherwise", async () => {
    const exit2 = lifecycleFor([
      hookConfig("permission_request", { command: "echo 'not here' >&2; exit 2" }),
    ]);
    expect((await exit2.permissionRequest(request)).answer).toEqual({ decision: "deny", reason: "not here" });
    const silent = lifecycleFor([hookConfig("permission_request", { command: "exit 1" })]);
    expect((await silent.permissionRequest(request)).answer).toBeUndefined();
  });

  it("only asks hooks whose tool_name matches", async () => {
    const hooks = lifecycleFor([
      hookConfig("permission_request", { command: `printf '{"decision":"allow"}'`, tool_name: "write" }),
    ]);
    expect(await hooks.permissionRequest(request)).toEqual({ results: [] });
  });
});

describe("teammate_idle and task_completed", () => {
  it("teammate_idle: exit 2 keeps the teammate working with the hook's stderr", async () => {
    const hooks = lifecycleFor([
      hookConfig("teammate_idle", { command: "echo 'pick task 4 next' >&2; exit 2" }),
    ]);
    const outcome = await hooks.teammateIdle({ team_name: "red", teammate_name: "bob" });
    expect(outcome.keepWorking).toBe("pick task 4 next");
  });

  it("teammate_idle: any other exit lets the teammate go idle", async () => {
    const hooks = lifecycleFor([
      hookConfig("teammate_idle", { command: "exit 0" }),
      hookConfig("teammate_idle", { command: "echo fail >&2; exit 1", block: true }),
    ]);
    const outcome = await hooks.teammateIdle({ team_name: "red", teammate_name: "bob" });
    expect(outcome.keepWorking).toBeUndefined();
    expect(outcome.results.map((result) => result.status)).toEqual(["ok", "failed"]);
  });

  it("task_completed: exit 2 rejects the completion with the hook's stderr", async () => {
    const hooks = lifecycleFor([
      hookConfig("task_completed", { command: "exit 0" }),
      hookConfig("task_completed", { command: "echo 'tests still fail' >&2; exit 2" }),
    ]);
    const outcome = await hooks.taskCompleted({ team_name: "red", task_id: "7", task_subject: "Port hooks" });
    expect(outcome.reject).toBe("tests still fail");
  });

  it("task_completed: exit 0 or 1 accepts it", async () => {
    const hooks = lifecycleFor([hookConfig("task_completed", { command: "exit 1" })]);
    const outcome = await hooks.taskCompleted({ team_name: "red", task_id: "7", task_subject: "Port hooks" });
    expect(outcome.reject).toBeUndefined();
  });
});

describe("abort", () => {
  it("kills running hooks when the signal aborts", async () => {
    const controller = new AbortController();
    const hooks = lifecycleFor([hookConfig("session_start", { command: "sleep 30" })], controller.signal);
    setTimeout(() => controller.abort(), 100);
    const [result] = await hooks.sessionStart({ source: "startup" });
    expect(result?.status).toBe("killed");
    expect(result?.summary).toBe("[hook] sleep 30 (killed)");
  });
});
