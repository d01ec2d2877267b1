import { access } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolGateRequest } from "../agent-loop/agent-context.js";
import { createPathGuard } from "../engines/sandbox/path-guard.js";
import type { AgentTag } from "../events/agent-events.js";
import type { HookConfig } from "../hooks/hook-types.js";
import { lifecycleHooks } from "../hooks/lifecycle-hooks.js";
import {
  createHookSandbox,
  type HookSandbox,
  hookConfig,
  recordCommand,
} from "../hooks/testing/hook-sandbox.js";
import type { Tool } from "../tools/seam/define-tool.js";
import {
  type ApprovalAnswer,
  type ApprovalPrompt,
  createApprovalBroker,
  NO_APPROVER_REASON,
} from "./approval-broker.js";
import { APPROVAL_INTERRUPTED_REASON, approvalNotice } from "./approve-with-hooks.js";
import { createToolGate } from "./create-tool-gate.js";
import { createPermissionPolicy } from "./permission-policy.js";

let sandbox: HookSandbox;
beforeEach(async () => {
  sandbox = await createHookSandbox();
});
afterEach(async () => {
  await sandbox.cleanup();
});

const agent: AgentTag = { agentId: "lead", depth: 0 };
const write = { name: "write", kind: "edit", mutates: true } as Tool;
const input = { file_path: "a.txt", content: "hi" };

function request(signal?: AbortSignal, from: AgentTag = agent): ToolGateRequest {
  return {
    callId: "c1",
    tool: write,
    input,
    paths: [{ path: "a.txt", access: "write" }],
    preview: undefined,
    agent: from,
    signal,
  };
}

/** A default-trust (mode off) gate with the given hooks; `answer` "none" means headless. */
function gateWith(configs: HookConfig[], answer: ApprovalAnswer | "none") {
  const prompts: ApprovalPrompt[] = [];
  const policy = createPermissionPolicy({ trust: {}, roots: [sandbox.dir], cwd: sandbox.dir });
  const callback =
    answer === "none"
      ? undefined
      : async (prompt: ApprovalPrompt) => {
          prompts.push(prompt);
          return answer;
        };
  const broker = createApprovalBroker({ callback });
  const guard = createPathGuard({
    level: "workspace-write",
    roots: [sandbox.dir],
    cwd: sandbox.dir,
    denyPaths: [],
  });
  const hooks = lifecycleHooks(sandbox.runner(configs), { sessionId: "s1" });
  return { gate: createToolGate({ policy, broker, guard, hooks }), prompts };
}

/** Waits for a file a detached hook writes (notification hooks are not awaited). */
async function eventually(name: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await access(join(sandbox.dir, name));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe("permission_request hooks in the gate", () => {
  it("a JSON allow approves a default-trust write without asking anyone, even headless", async () => {
    const allow = hookConfig("permission_request", { command: `printf '{"decision":"allow"}'` });
    for (const answer of ["deny", "none"] as const) {
      const { gate, prompts } = gateWith([allow], answer);
      expect(await gate.decide(request())).toEqual({ action: "ask" });
      const approval = await gate.approve(request());
      expect(approval.approved).toBe(true);
      expect(approval.reason).toMatch(/^approved by a permission_request hook: /);
      expect(prompts).toEqual([]);
    }
  });

  it("a JSON deny refuses with its reason, without asking", async () => {
    const { gate, prompts } = gateWith(
      [hookConfig("permission_request", { command: `printf '{"decision":"deny","reason":"frozen"}'` })],
      "allow",
    );
    expect(await gate.approve(request())).toEqual({
      approved: false,
      reason: "denied by a permission_request hook: frozen",
    });
    expect(prompts).toEqual([]);
  });

  it("gives the hook the tool's name and input, then asks the user when it does not decide", async () => {
    const { gate, prompts } = gateWith(
      [hookConfig("permission_request", { command: recordCommand("permission") })],
      "allow",
    );
    expect(await gate.approve(request())).toEqual({ approved: true, reason: "approved by the user" });
    expect(prompts).toHaveLength(1);
    expect(await sandbox.readJson("permission.json")).toEqual({
      hook_event_name: "PermissionRequest",
      session_id: "s1",
      cwd: sandbox.dir,
      tool_name: "write",
      tool_input: input,
      agent_id: "lead",
      depth: 0,
    });
  });

  it("names the asking subagent as subagent_start does: agent_id, nickname, role, depth", async () => {
    const { gate } = gateWith(
      [hookConfig("permission_request", { command: recordCommand("permission") })],
      "allow",
    );
    const child: AgentTag = { agentId: "child-1", depth: 2, nickname: "Scout", role: "worker" };
    await gate.approve(request(undefined, child));
    expect(await sandbox.readJson("permission.json")).toEqual({
      hook_event_name: "PermissionRequest",
      session_id: "s1",
      cwd: sandbox.dir,
      tool_name: "write",
      tool_input: input,
      agent_id: "child-1",
      nickname: "Scout",
      role: "worker",
      depth: 2,
    });
  });

  it("an interrupt kills a slow permission hook and asks nobody", async () => {
    const { gate, prompts } = gateWith(
      [hookConfig("permission_request", { command: "sleep 20", block: true, timeout: 30 })],
      "allow",
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const startedAt = Date.now();
    expect(await gate.approve(request(controller.signal))).toEqual({
      approved: false,
      reason: APPROVAL_INTERRUPTED_REASON,
    });
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(prompts).toEqual([]);
  });
});

describe("notification hooks in the gate", () => {
  it("fire with the approval message when the user is asked", async () => {
    const { gate, prompts } = gateWith(
      [hookConfig("notification", { command: recordCommand("notified") })],
      "allow",
    );
    await gate.approve(request());
    expect(prompts).toHaveLength(1);
    await eventually("notified.env");
    expect(await sandbox.readJson("notified.json")).toMatchObject({
      hook_event_name: "Notification",
      message: "nyz needs your approval to run write",
      notification_type: "permission_prompt",
    });
  });

  it("do not fire when a permission hook decided or nobody can be asked", async () => {
    const notify = hookConfig("notification", { command: "touch notified" });
    const decided = gateWith(
      [hookConfig("permission_request", { command: `printf '{"decision":"allow"}'` }), notify],
      "allow",
    );
    await decided.gate.approve(request());
    const headless = gateWith([notify], "none");
    expect(await headless.gate.approve(request())).toEqual({ approved: false, reason: NO_APPROVER_REASON });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(access(join(sandbox.dir, "notified"))).rejects.toThrow();
    expect(sandbox.reported.map((result) => result.event)).toEqual(["permission_request"]);
  });

  it("name the asking subagent", () => {
    expect(approvalNotice("bash", { agentId: "a1", depth: 1, nickname: "Scout" })).toBe(
      "nyz needs your approval to run bash (for agent Scout)",
    );
  });
});
