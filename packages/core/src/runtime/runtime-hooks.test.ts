import { access, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type HookConfig, type NyzhiConfig } from "@nyzhi/config";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockLanguageModel } from "../agent-loop/testing/mock-language-model.js";
import { expectConsistentHistory, processesRunning } from "../agent-loop/testing/turn-checks.js";
import type { AgentEvent } from "../events/agent-events.js";
import { hookConfig } from "../hooks/testing/hook-sandbox.js";
import { type AgentHost, createAgentRuntime } from "./create-agent-runtime.js";

let mock: MockLlm | undefined;
let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-runtime-hooks-")));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(workspace, { recursive: true, force: true });
});

/** A runtime whose model writes `out.txt` once, then says "done". Default trust unless `full`. */
async function runtimeFor(hooks: HookConfig[], options: { full?: boolean; host?: AgentHost } = {}) {
  mock = await startMockLlm({
    scenario: {
      rules: [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "write", arguments: { file_path: "out.txt", content: "hi" } }] },
        },
        { response: { text: "done" } },
      ],
    },
  });
  const config: NyzhiConfig = defaultConfig();
  if (options.full) config.agent.trust.mode = "full";
  config.agent.agents.enabled = false;
  config.agent.hooks = hooks;
  const model = mockLanguageModel(mock, { modelId: "claude-sonnet-4-6-20260217" });
  return createAgentRuntime({
    config,
    model,
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: workspace },
    ...(options.host ? { host: options.host } : {}),
  });
}

async function exists(name: string): Promise<boolean> {
  try {
    await access(join(workspace, name));
    return true;
  } catch {
    return false;
  }
}

async function waitFor(name: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await exists(name))) {
    if (Date.now() > deadline) throw new Error(`${name} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("Ctrl-C during a pre_tool_use hook", () => {
  it("kills the hook, skips the write and ends the turn as aborted with every call answered", async () => {
    // A unique duration marks the hook's process.
    const marker = `${20 + Math.floor(Math.random() * 1000) / 1000}`;
    const runtime = await runtimeFor(
      [hookConfig("pre_tool_use", { command: `touch hook-started; sleep ${marker}`, timeout: 30 })],
      { full: true },
    );
    const controller = new AbortController();
    let abortedAt = 0;
    const aborting = waitFor("hook-started").then(async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await processesRunning(`sleep ${marker}`)).not.toEqual([]);
      abortedAt = Date.now();
      controller.abort();
    });
    const events: AgentEvent[] = [];
    for await (const event of runtime.runTurn("write it", { signal: controller.signal })) events.push(event);
    await aborting;

    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "aborted" });
    expect(events.some((event) => event.type === "tool-start")).toBe(false);
    expect(await exists("out.txt")).toBe(false);
    expectConsistentHistory(runtime.context.thread);
    const results = runtime.context.thread.at(-1);
    expect(results?.role === "tool" && results.content.map((result) => result.output)).toEqual([
      "Cancelled before it ran.",
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await processesRunning(`sleep ${marker}`)).toEqual([]);
  });
});

describe("Ctrl-C during a user_prompt_submit hook", () => {
  it("kills the hook and ends the turn as aborted before the model or the thread sees the prompt", async () => {
    const runtime = await runtimeFor([
      hookConfig("user_prompt_submit", { command: "sleep 20", block: true, timeout: 30 }),
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const startedAt = Date.now();
    const turn = runtime.runTurn("write it", { signal: controller.signal });
    const events: AgentEvent[] = [];
    let next = await turn.next();
    while (!next.done) {
      events.push(next.value);
      next = await turn.next();
    }
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(next.value.reason).toBe("aborted");
    // Not reported as a block: the killed hook never answered.
    expect(events).toEqual([]);
    expect(runtime.context.thread).toEqual([]);
    expect(mock?.requests).toHaveLength(0);
  });
});

describe("approval hooks in a real run (default trust)", () => {
  it("a permission_request hook's allow lets a headless write through", async () => {
    const runtime = await runtimeFor([
      hookConfig("permission_request", { command: `printf '{"decision":"allow"}'` }),
    ]);
    const events: AgentEvent[] = [];
    for await (const event of runtime.runTurn("write it")) events.push(event);
    expect(await readFile(join(workspace, "out.txt"), "utf8")).toBe("hi");
    expect(events.find((event) => event.type === "approval-resolved")).toMatchObject({
      tool: "write",
      approved: true,
    });
  });

  it("without a hook's answer a headless write is still refused", async () => {
    const runtime = await runtimeFor([hookConfig("permission_request", { command: "true" })]);
    for await (const event of runtime.runTurn("write it")) void event;
    expect(await exists("out.txt")).toBe(false);
  });

  it("a notification hook runs when the user is asked for approval", async () => {
    const asked: string[] = [];
    const runtime = await runtimeFor(
      [hookConfig("notification", { command: "cat > notified.tmp && mv notified.tmp notified.json" })],
      {
        host: {
          approve: async (prompt) => {
            asked.push(prompt.tool);
            // The notification goes out as the question does.
            await waitFor("notified.json");
            return "allow";
          },
        },
      },
    );
    for await (const event of runtime.runTurn("write it")) void event;
    expect(asked).toEqual(["write"]);
    expect(await readFile(join(workspace, "out.txt"), "utf8")).toBe("hi");
    expect(JSON.parse(await readFile(join(workspace, "notified.json"), "utf8"))).toMatchObject({
      hook_event_name: "Notification",
      message: "nyz needs your approval to run write",
    });
  });
});
