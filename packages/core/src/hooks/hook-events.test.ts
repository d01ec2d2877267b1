import { HOOK_EVENTS, type HookEvent } from "@nyzhi/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookRunner } from "./hook-runner.js";
import { lifecycleHooks } from "./lifecycle-hooks.js";
import { createHookSandbox, type HookSandbox, hookConfig, recordCommand } from "./testing/hook-sandbox.js";
import { toolCallHooks } from "./tool-call-hooks.js";

/**
 * One case per hook event: fire it through the entry point the runtime uses, then check the JSON the
 * hook read on stdin (whole object) and its NYZHI_* environment.
 */
interface EventCase {
  fire(runner: HookRunner, dir: string): Promise<unknown> | undefined;
  stdin(dir: string): Record<string, unknown>;
}

const sessionId = "session-9";
const lifecycle = (runner: HookRunner) => lifecycleHooks(runner, { sessionId });
const tools = (runner: HookRunner) => toolCallHooks(runner, { sessionId });
const writeInput = { file_path: "src/a.ts", content: "x" };

const cases: Record<HookEvent, EventCase> = {
  session_start: {
    fire: (runner) => lifecycle(runner).sessionStart({ source: "resume" }),
    stdin: () => ({ source: "resume" }),
  },
  user_prompt_submit: {
    fire: (runner) => lifecycle(runner).userPromptSubmit({ prompt: "fix the bug" }),
    stdin: () => ({ prompt: "fix the bug" }),
  },
  pre_tool_use: {
    fire: (runner) => tools(runner).beforeToolCall?.({ callId: "c1", name: "write", input: writeInput }),
    stdin: () => ({ tool_name: "write", tool_input: writeInput }),
  },
  post_tool_use: {
    fire: (runner) =>
      tools(runner).afterToolCall?.({
        callId: "c1",
        name: "bash",
        input: { command: "ls" },
        output: "a\nb",
        isError: false,
      }),
    stdin: () => ({ tool_name: "bash", tool_input: { command: "ls" }, tool_output: "a\nb", success: true }),
  },
  post_tool_use_failure: {
    fire: (runner) =>
      tools(runner).afterToolCall?.({
        callId: "c1",
        name: "bash",
        input: { command: "x" },
        output: "nope",
        isError: true,
      }),
    stdin: () => ({ tool_name: "bash", tool_input: { command: "x" }, tool_output: "nope", success: false }),
  },
  permission_request: {
    fire: (runner) =>
      lifecycle(runner).permissionRequest({
        tool_name: "bash",
        tool_input: { command: "rm -rf x" },
        agent_id: "a1",
        nickname: "Scout",
        role: "explorer",
        depth: 1,
      }),
    stdin: () => ({
      tool_name: "bash",
      tool_input: { command: "rm -rf x" },
      agent_id: "a1",
      nickname: "Scout",
      role: "explorer",
      depth: 1,
    }),
  },
  notification: {
    fire: (runner) =>
      lifecycle(runner).notification({ message: "needs approval", notification_type: "approval" }),
    stdin: () => ({ message: "needs approval", notification_type: "approval" }),
  },
  after_edit: {
    fire: (runner) =>
      tools(runner).afterToolCall?.({
        callId: "c1",
        name: "write",
        input: writeInput,
        output: "Wrote",
        isError: false,
      }),
    stdin: (dir) => ({ tool_name: "write", file: `${dir}/src/a.ts`, files: [`${dir}/src/a.ts`] }),
  },
  after_turn: {
    fire: (runner) => lifecycle(runner).afterTurn({ turn_id: "turn-3", reason: "completed", steps: 4 }),
    stdin: () => ({ turn_id: "turn-3", reason: "completed", steps: 4 }),
  },
  subagent_start: {
    fire: (runner) =>
      lifecycle(runner).subagentStart({ agent_id: "a1", nickname: "Ada", role: "explorer", depth: 1 }),
    stdin: () => ({ agent_id: "a1", nickname: "Ada", role: "explorer", depth: 1 }),
  },
  subagent_end: {
    fire: (runner) =>
      lifecycle(runner).subagentEnd({
        agent_id: "a1",
        nickname: "Ada",
        role: "explorer",
        depth: 1,
        status: "completed",
        result: "found it",
      }),
    stdin: () => ({
      agent_id: "a1",
      nickname: "Ada",
      role: "explorer",
      depth: 1,
      status: "completed",
      result: "found it",
    }),
  },
  compact_context: {
    fire: (runner) => lifecycle(runner).compactContext({ trigger: "auto", estimated_tokens: 171_000 }),
    stdin: () => ({ trigger: "auto", estimated_tokens: 171_000 }),
  },
  worktree_create: {
    fire: (runner, dir) => lifecycle(runner).worktreeCreate({ path: `${dir}/wt`, branch: "feature" }),
    stdin: (dir) => ({ path: `${dir}/wt`, branch: "feature" }),
  },
  worktree_remove: {
    fire: (runner, dir) => lifecycle(runner).worktreeRemove({ path: `${dir}/wt` }),
    stdin: (dir) => ({ path: `${dir}/wt` }),
  },
  config_change: {
    fire: (runner) =>
      lifecycle(runner).configChange({
        source: "project",
        file: ".nyzhi/config.toml",
        keys: ["agent.trust.mode"],
      }),
    stdin: () => ({ source: "project", file: ".nyzhi/config.toml", keys: ["agent.trust.mode"] }),
  },
  teammate_idle: {
    fire: (runner) => lifecycle(runner).teammateIdle({ team_name: "red", teammate_name: "bob" }),
    stdin: () => ({ team_name: "red", teammate_name: "bob" }),
  },
  task_completed: {
    fire: (runner) =>
      lifecycle(runner).taskCompleted({
        team_name: "red",
        task_id: "7",
        task_subject: "Port hooks",
        teammate_name: "bob",
      }),
    stdin: () => ({ team_name: "red", task_id: "7", task_subject: "Port hooks", teammate_name: "bob" }),
  },
};

const pascal: Record<HookEvent, string> = {
  session_start: "SessionStart",
  user_prompt_submit: "UserPromptSubmit",
  pre_tool_use: "PreToolUse",
  post_tool_use: "PostToolUse",
  post_tool_use_failure: "PostToolUseFailure",
  permission_request: "PermissionRequest",
  notification: "Notification",
  after_edit: "AfterEdit",
  after_turn: "AfterTurn",
  subagent_start: "SubagentStart",
  subagent_end: "SubagentEnd",
  compact_context: "CompactContext",
  worktree_create: "WorktreeCreate",
  worktree_remove: "WorktreeRemove",
  config_change: "ConfigChange",
  teammate_idle: "TeammateIdle",
  task_completed: "TaskCompleted",
};

let sandbox: HookSandbox;
let runner: HookRunner;
beforeAll(async () => {
  sandbox = await createHookSandbox();
  runner = sandbox.runner(HOOK_EVENTS.map((event) => hookConfig(event, { command: recordCommand(event) })));
});
afterAll(async () => {
  await sandbox.cleanup();
});

describe("every hook event", () => {
  it("has a case here", () => {
    expect(Object.keys(cases).sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it.each(HOOK_EVENTS)("%s: the hook gets its JSON on stdin and its env", async (event) => {
    await cases[event].fire(runner, sandbox.dir);
    expect(await sandbox.readJson(`${event}.json`)).toEqual({
      hook_event_name: pascal[event],
      session_id: sessionId,
      cwd: sandbox.dir,
      ...cases[event].stdin(sandbox.dir),
    });
    expect(await sandbox.readText(`${event}.env`)).toBe(`${event}|${sandbox.dir}|from-env`);
  });

  it("each entry point fired only its own event's hook", () => {
    const counts = new Map<string, number>();
    for (const result of sandbox.reported) counts.set(result.event, (counts.get(result.event) ?? 0) + 1);
    // pre_tool_use's write call fires nothing after; the after_edit case also fires post_tool_use.
    expect(Object.fromEntries(counts)).toEqual({
      ...Object.fromEntries(HOOK_EVENTS.map((event) => [event, 1])),
      post_tool_use: 2,
    });
  });
});
