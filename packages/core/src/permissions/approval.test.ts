import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolGateRequest } from "../agent-loop/agent-context.js";
import { createPathGuard } from "../engines/sandbox/path-guard.js";
import type { Tool } from "../tools/seam/define-tool.js";
import type { ToolKind } from "../tools/seam/tool-types.js";
import {
  type ApprovalAnswer,
  type ApprovalPrompt,
  createApprovalBroker,
  NO_APPROVER_REASON,
} from "./approval-broker.js";
import { createToolGate } from "./create-tool-gate.js";
import { createPermissionPolicy } from "./permission-policy.js";
import type { TrustSettings } from "./trust-mode.js";

let workspace: string;
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-gate-")));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const agent = { agentId: "lead", depth: 0 };

function fakeTool(name: string, kind: ToolKind, mutates: boolean): Tool {
  return { name, kind, mutates } as Tool;
}

function gateRequest(
  tool: Tool,
  input: unknown,
  preview?: string,
  paths: ToolGateRequest["paths"] = [],
): ToolGateRequest {
  return { callId: "c1", tool, input, paths, preview, agent };
}

function setup(
  trust: Partial<TrustSettings>,
  answers: ApprovalAnswer[] | "none",
  level = "workspace-write" as const,
) {
  const prompts: ApprovalPrompt[] = [];
  const policy = createPermissionPolicy({ trust, roots: [workspace], cwd: workspace });
  const callback =
    answers === "none"
      ? undefined
      : async (prompt: ApprovalPrompt) => {
          prompts.push(prompt);
          return answers.shift() ?? "deny";
        };
  const broker = createApprovalBroker({ callback });
  const guard = createPathGuard({
    level,
    roots: [workspace],
    cwd: workspace,
    denyPaths: trust.deny_paths ?? [],
  });
  return { gate: createToolGate({ policy, broker, guard }), prompts, broker };
}

const bash = fakeTool("bash", "execute", true);
const edit = fakeTool("edit", "edit", true);

describe("approval through the gate", () => {
  it("asks the host with the tool, its input, a preview and the agent", async () => {
    const { gate, prompts } = setup({ mode: "off" }, ["allow"]);
    const request = gateRequest(bash, { command: "npm test" }, "npm test");
    expect(await gate.decide(request)).toEqual({ action: "ask" });
    expect(await gate.approve(request)).toEqual({ approved: true, reason: "approved by the user" });
    expect(prompts).toEqual([{ tool: "bash", input: { command: "npm test" }, preview: "npm test", agent }]);
  });

  it("passes a denial's reason on to the model", async () => {
    const { gate } = setup({ mode: "off" }, [{ deny: "use the staging config instead" }]);
    const request = gateRequest(edit, { path: "a.ts" }, "diff");
    expect(await gate.approve(request)).toEqual({
      approved: false,
      reason: "denied by the user: use the staging config instead",
    });
  });

  it("remembers allow-always for the session: a command by its prefix, a file tool by its folders", async () => {
    const { gate, prompts } = setup({ mode: "off" }, ["allow-always", "allow-always"]);
    const npmTest = gateRequest(bash, { command: "npm test" }, "npm test");
    expect(await gate.decide(npmTest)).toEqual({ action: "ask" });
    await gate.approve(npmTest);
    expect(await gate.decide(npmTest)).toEqual({ action: "allow" });
    expect(await gate.decide(gateRequest(bash, { command: "rm -rf ~" }, "rm -rf ~"))).toEqual({
      action: "ask",
    });
    const editRequest = gateRequest(edit, {}, undefined, [{ path: "a.ts", access: "write" }]);
    await gate.approve(editRequest);
    expect(await gate.decide(gateRequest(edit, {}, undefined, [{ path: "b.ts", access: "write" }]))).toEqual({
      action: "allow",
    });
    // "Allow always" for an edit covers its folder, not every path.
    expect(
      await gate.decide(gateRequest(edit, {}, undefined, [{ path: "deploy/secrets.ts", access: "write" }])),
    ).toEqual({ action: "ask" });
    expect(prompts).toHaveLength(2);
  });

  it("a command prefix never covers a chained command, and the rule can be forgotten", async () => {
    const { gate, broker } = setup({ mode: "off" }, ["allow-always"]);
    await gate.approve(gateRequest(bash, { command: "npm test" }, "npm test"));
    expect(await gate.decide(gateRequest(bash, { command: "npm test -- a.test.ts" }))).toEqual({
      action: "allow",
    });
    expect(await gate.decide(gateRequest(bash, { command: "npm test && rm -rf build" }))).toEqual({
      action: "ask",
    });
    expect(await gate.decide(gateRequest(bash, { command: "npm install" }))).toEqual({ action: "ask" });
    const [rule] = broker.rules();
    expect(rule).toMatchObject({
      tool: "bash",
      match: { commandPrefix: "npm test" },
      description: "bash `npm test …`",
    });
    expect(broker.forget(rule!.id)).toBe(true);
    expect(await gate.decide(gateRequest(bash, { command: "npm test" }))).toEqual({ action: "ask" });
  });

  it("an interactive broker announces each request by id, waits for its answer, and allow always answers the waiting ones it covers", async () => {
    const broker = createApprovalBroker({ interactive: true });
    const announced: string[] = [];
    const ask = (command: string) =>
      broker.request({
        tool: "bash",
        kind: "execute",
        input: { command },
        preview: command,
        agent,
        announce: (id) => announced.push(id),
      });
    const first = ask("npm test");
    const covered = ask("npm test -- --watch=false");
    const other = ask("ls -la");
    expect(announced).toEqual(["approval-1", "approval-2", "approval-3"]);
    expect(broker.answer("approval-1", "allow-always")).toBe(true);
    expect(await first).toEqual({
      approved: true,
      reason: "approved by the user for the rest of the session",
    });
    expect(await covered).toEqual({
      approved: true,
      reason: "approved by the user for the rest of the session",
    });
    expect(broker.answer("approval-2", "deny")).toBe(false);
    broker.denyAll("interrupted by the user");
    expect(await other).toEqual({ approved: false, reason: "interrupted by the user" });
  });

  it("always_ask is not silenced by a remembered approval", async () => {
    const { gate } = setup({ mode: "full", always_ask: ["bash"] }, ["allow-always"]);
    const request = gateRequest(bash, { command: "ls" }, "ls");
    await gate.approve(request);
    expect(await gate.decide(request)).toEqual({ action: "ask" });
  });

  it("headless (no callback) denies with a reason", async () => {
    const { gate } = setup({ mode: "off" }, "none");
    expect(await gate.approve(gateRequest(bash, { command: "ls" }, "ls"))).toEqual({
      approved: false,
      reason: NO_APPROVER_REASON,
    });
  });

  it("headless, an always_ask refusal says which rule asked (no trust mode can allow it)", async () => {
    const { gate } = setup({ mode: "full", always_ask: ["ba*"] }, "none");
    const request = gateRequest(bash, { command: "ls" }, "ls");
    expect(await gate.decide(request)).toEqual({ action: "ask" });
    expect(await gate.approve(request)).toEqual({
      approved: false,
      reason: `always_ask rule "ba*"; ${NO_APPROVER_REASON}`,
    });
  });

  it("a user's deny and a failing prompt both deny", async () => {
    const { gate } = setup({ mode: "off" }, ["deny"]);
    expect(await gate.approve(gateRequest(bash, {}, "x"))).toEqual({
      approved: false,
      reason: "denied by the user",
    });
    const broken = createApprovalBroker({
      callback: async () => {
        throw new Error("terminal closed");
      },
    });
    expect(await broken.request({ tool: "bash", kind: "execute", input: {}, preview: "x", agent })).toEqual({
      approved: false,
      reason: "the approval prompt failed: Error: terminal closed",
    });
  });

  it("checks every path against the sandbox before the policy, even in full trust", async () => {
    const { gate } = setup({ mode: "full", deny_paths: [".env"] }, []);
    expect(
      await gate.decide(gateRequest(edit, {}, undefined, [{ path: "../elsewhere.txt", access: "write" }])),
    ).toEqual({
      action: "deny",
      reason: `blocked by the sandbox: Writing ${join(workspace, "..", "elsewhere.txt")} is not allowed: it is outside the workspace ${workspace}.`,
    });
    const read = fakeTool("read", "read", false);
    expect(
      (await gate.decide(gateRequest(read, {}, undefined, [{ path: "sub/.env", access: "read" }]))).action,
    ).toBe("deny");
    expect(
      await gate.decide(gateRequest(edit, {}, undefined, [{ path: "ok.txt", access: "write" }])),
    ).toEqual({
      action: "allow",
    });
  });
});
