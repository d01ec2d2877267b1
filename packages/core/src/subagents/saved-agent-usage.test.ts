import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { computeCost, findModel, type Usage } from "@nyzhi/provider";
import { afterEach, describe, expect, it } from "vitest";
import { type SubagentHarness, startSubagentHarness } from "../runtime/testing/subagent-harness.js";
import { exportSessionMarkdown } from "../saved-sessions/export-session.js";
import { SessionStore } from "../saved-sessions/session-store.js";
import type { SavedAgentThread } from "../saved-sessions/session-types.js";
import { AgentManager } from "./agent-manager.js";

let harnesses: SubagentHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses) await harness.close();
  harnesses = [];
});

const usage = (inputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

const LEAD = { agentId: "lead", depth: 0 };
const PARENT_STEP = { inputTokens: 1000, outputTokens: 100 };
const LEAF_STEP = { inputTokens: 2000, outputTokens: 200 };
const RESUMED_STEP = { inputTokens: 500, outputTokens: 50 };

/** A manager that only restores and snapshots (it never builds a child). */
function bareManager(): AgentManager {
  return new AgentManager({
    maxThreads: 4,
    maxDepth: 2,
    factory: {
      createChild: () => Promise.reject(new Error("no child is built in this test")),
    },
    emit: () => {},
  });
}

function savedAgent(
  fields: Partial<SavedAgentThread> & { agentId: string; parentId: string },
): SavedAgentThread {
  return {
    nickname: `nick-${fields.agentId}`,
    role: "default",
    depth: 1,
    status: "completed: done",
    model: "claude-sonnet-4-6-20260217",
    messages: [
      { role: "user", content: "do it" },
      { role: "assistant", content: "done" },
    ],
    result: "done",
    ...fields,
  };
}

describe("per-agent usage across snapshot and restore", () => {
  it("saves own and subtree usage, restores it, and a resumed agent adds to it", async () => {
    const first = await startSubagentHarness({
      rules: [
        { match: { lastUser: "grandchild task" }, response: { text: "leaf done", usage: LEAF_STEP } },
        {
          match: { lastUser: "parent task", lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "spawn_agent", arguments: { message: "grandchild task" } }],
            usage: PARENT_STEP,
          },
        },
        {
          match: { lastUser: "parent task", lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }], usage: PARENT_STEP },
        },
        { match: { lastUser: "parent task" }, response: { text: "parent done", usage: PARENT_STEP } },
      ],
    });
    harnesses.push(first);
    const manager = first.runtime.manager!;
    const parent = await manager.spawn({ parent: LEAD, message: "parent task" });
    await manager.wait({ callerId: "lead", ids: [parent.agentId], timeoutMs: 10_000 });
    expect(manager.info(parent.agentId)).toMatchObject({ status: "completed: parent done" });

    const model = findModel(first.mock.requests[0]!.model ?? "", "anthropic")!;
    const cost = (spent: Usage) => computeCost(model, spent);
    const saved = manager.snapshot();
    const leafId = Object.keys(saved).find((id) => id !== parent.agentId)!;
    const pick = ({ usage, costUsd, subtreeUsage, subtreeCostUsd }: SavedAgentThread) => ({
      usage,
      costUsd,
      subtreeUsage,
      subtreeCostUsd,
    });
    expect(pick(saved[leafId]!)).toEqual({
      usage: usage(2000, 200),
      costUsd: cost(usage(2000, 200)),
      subtreeUsage: usage(2000, 200),
      subtreeCostUsd: cost(usage(2000, 200)),
    });
    expect(pick(saved[parent.agentId]!)).toEqual({
      usage: usage(3000, 300),
      costUsd: expect.closeTo(cost(usage(3000, 300)), 12),
      subtreeUsage: usage(5000, 500),
      subtreeCostUsd: expect.closeTo(cost(usage(5000, 500)), 12),
    });

    // As a `--continue`d session: the saved file read back into a new session's manager.
    const second = await startSubagentHarness({
      rules: [{ match: { lastUser: "once more" }, response: { text: "again done", usage: RESUMED_STEP } }],
    });
    harnesses.push(second);
    const resumed = second.runtime.manager!;
    resumed.restore(JSON.parse(JSON.stringify(saved)) as Record<string, SavedAgentThread>);
    expect(resumed.usageOf(parent.agentId)).toEqual({
      usage: usage(5000, 500),
      costUsd: expect.closeTo(cost(usage(5000, 500)), 12),
    });
    expect(pick(resumed.snapshot()[leafId]!)).toEqual(pick(saved[leafId]!));

    await resumed.resume(parent.agentId, "once more");
    await resumed.wait({ callerId: "lead", ids: [parent.agentId], timeoutMs: 10_000 });
    expect(resumed.info(parent.agentId)).toMatchObject({ status: "completed: again done" });
    expect(pick(resumed.snapshot()[parent.agentId]!)).toEqual({
      usage: usage(3500, 350),
      costUsd: expect.closeTo(cost(usage(3500, 350)), 12),
      subtreeUsage: usage(5500, 550),
      subtreeCostUsd: expect.closeTo(cost(usage(5500, 550)), 12),
    });
  });

  it("keeps the usage of descendants forgotten before the save in the restored subtree", () => {
    const manager = bareManager();
    manager.restore({
      p: savedAgent({
        agentId: "p",
        parentId: "lead",
        usage: usage(100, 10),
        costUsd: 0.1,
        subtreeUsage: usage(700, 70),
        subtreeCostUsd: 0.7,
      }),
      c: savedAgent({
        agentId: "c",
        parentId: "p",
        depth: 2,
        usage: usage(200, 20),
        costUsd: 0.2,
        subtreeUsage: usage(200, 20),
        subtreeCostUsd: 0.2,
      }),
    });
    expect(manager.usageOf("p")).toEqual({ usage: usage(700, 70), costUsd: expect.closeTo(0.7, 12) });
    expect(manager.usageOf("c")).toEqual({ usage: usage(200, 20), costUsd: 0.2 });
    expect(manager.snapshot().p).toMatchObject({ usage: usage(100, 10), subtreeUsage: usage(700, 70) });
  });

  it("loads a session saved before usage was kept, and counts its agents from zero", async () => {
    const directory = join(await mkdtemp(join(tmpdir(), "nyzhi-old-session-")), "sessions");
    await mkdir(directory, { recursive: true });
    const old = savedAgent({ agentId: "old-agent", parentId: "lead" });
    await writeFile(
      join(directory, "old1.json"),
      JSON.stringify({
        version: 1,
        meta: {
          id: "old1",
          title: "before usage",
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
          messageCount: 0,
          provider: "anthropic",
          model: "claude-sonnet-4-6-20260217",
        },
        messages: [],
        agents: { "old-agent": old },
      }),
    );
    const record = await new SessionStore(directory).load("old1");
    expect(record.agents).toEqual({ "old-agent": old });

    const manager = bareManager();
    manager.restore(record.agents!);
    expect(manager.info("old-agent")).toMatchObject({
      status: "completed: done",
      nickname: "nick-old-agent",
    });
    expect(manager.usageOf("old-agent")).toEqual({ usage: usage(0, 0), costUsd: 0 });
    expect(manager.snapshot()["old-agent"]).toMatchObject({ usage: usage(0, 0), costUsd: 0 });

    const markdown = exportSessionMarkdown(record);
    expect(markdown).toContain("# Subagent nick-old-agent (default, depth 1, completed: done)\n\n### You");
    expect(markdown).not.toContain("tokens:");
  });

  it("reads a malformed saved usage as zero instead of failing the resume", () => {
    const manager = bareManager();
    const broken = { ...savedAgent({ agentId: "b", parentId: "lead" }), usage: null, costUsd: "x" };
    manager.restore({ b: broken as unknown as SavedAgentThread });
    expect(manager.usageOf("b")).toEqual({ usage: usage(0, 0), costUsd: 0 });
  });
});
