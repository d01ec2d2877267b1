import { describe, expect, it } from "vitest";
import {
  completed,
  JADE,
  LEAD,
  MICA,
  OPAL,
  QUARTZ,
  spawned,
  spent,
  usage,
} from "./__fixtures__/agent-events.js";
import { agentPath, flattenTree } from "./agent-tree-queries.js";
import { buildTreeRows } from "./agent-tree-rows.js";
import { type AgentTreeInput, type AgentTreeState, agentStatus, totalTokens } from "./agent-tree-types.js";
import { agentTreeReducer, clearFinished, createAgentTreeState, reduceAgentTree } from "./agents-reducer.js";
import { activityOf } from "./format-agent.js";

function build(inputs: readonly AgentTreeInput[], state = createAgentTreeState()): AgentTreeState {
  return reduceAgentTree(state, inputs);
}

const NESTED: AgentTreeInput[] = [
  { type: "turn-start", agent: LEAD, turnId: "t", input: "go", at: 0 },
  ...spawned(LEAD, OPAL, 1_000),
  ...spawned(LEAD, JADE, 2_000),
  ...spawned(OPAL, QUARTZ, 3_000),
  ...spawned(QUARTZ, MICA, 4_000),
];

describe("agentTreeReducer", () => {
  it("builds the tree from spawn events, each child under the agent that spawned it", () => {
    const state = build(NESTED);
    expect(state.leadId).toBe("lead");
    expect(state.roots).toEqual(["opal-id", "jade-id"]);
    expect(state.nodes["opal-id"]?.children).toEqual(["quartz-id"]);
    expect(state.nodes["quartz-id"]).toMatchObject({ parentId: "opal-id", depth: 2, nickname: "Quartz" });
    expect(state.nodes["mica-id"]).toMatchObject({ parentId: "quartz-id", depth: 3, startedAt: 4_000 });
    expect(flattenTree(state.nodes, state.roots).map((line) => [line.node.nickname, line.level])).toEqual([
      ["Opal", 0],
      ["Quartz", 1],
      ["Mica", 2],
      ["Jade", 0],
    ]);
    expect(agentPath(state, "mica-id").map((node) => node.nickname)).toEqual(["Opal", "Quartz", "Mica"]);
  });

  it("passes every status: pending, running, awaiting approval, completed, errored, shut down, idle", () => {
    const spawnedOnly = build(NESTED.slice(0, 2));
    expect(agentStatus(spawnedOnly.nodes["opal-id"]!)).toBe("pending");
    let state = build(NESTED);
    expect(agentStatus(state.nodes["opal-id"]!)).toBe("running");
    state = build(
      [
        {
          type: "approval-requested",
          id: "approval-1",
          agent: QUARTZ,
          callId: "w1",
          tool: "write",
          input: { file_path: "a.ts" },
          preview: "",
        },
      ],
      state,
    );
    expect(agentStatus(state.nodes["quartz-id"]!)).toBe("awaiting-approval");
    expect(activityOf(state.nodes["quartz-id"]!)).toBe("write a.ts");
    state = build(
      [{ type: "approval-resolved", agent: QUARTZ, callId: "w1", tool: "write", approved: true, reason: "" }],
      state,
    );
    expect(agentStatus(state.nodes["quartz-id"]!)).toBe("running");
    state = build(
      [
        ...completed(QUARTZ, MICA, "completed: found it\nmore", 9_000, {
          tokens: 10,
          costUsd: 0,
          result: "found it",
        }),
        ...completed(OPAL, QUARTZ, "errored: the model request failed", 9_500, { tokens: 10, costUsd: 0 }),
        {
          type: "subagent-status-changed",
          agent: LEAD,
          childId: "jade-id",
          nickname: "Jade",
          status: "shutdown",
          child: { agentId: "jade-id", depth: 1 },
          state: { lifecycle: "shutdown" },
        },
      ],
      state,
    );
    expect(state.nodes["mica-id"]).toMatchObject({
      lifecycle: "completed",
      result: "found it",
      endedAt: 9_000,
    });
    expect(state.nodes["quartz-id"]).toMatchObject({
      lifecycle: "errored",
      detail: "the model request failed",
      endedAt: 9_500,
    });
    expect(state.nodes["jade-id"]?.lifecycle).toBe("shutdown");
  });

  it("takes a child's lifecycle from the event's state, never from its status line", () => {
    const state = build([
      ...spawned(LEAD, JADE, 1_000),
      {
        type: "subagent-status-changed",
        agent: LEAD,
        childId: JADE.agentId,
        nickname: "Jade",
        status: "a teammate's own words",
        child: JADE,
        state: { lifecycle: "idle" },
        at: 2_000,
      },
    ]);
    expect(state.nodes[JADE.agentId]?.lifecycle).toBe("idle");
  });

  it("shows what an agent does now, and keeps the state object for deltas that change nothing", () => {
    let state = build([
      ...NESTED,
      { type: "reasoning-delta", agent: OPAL, delta: "hm" },
      { type: "reasoning-delta", agent: OPAL, delta: "m" },
    ]);
    expect(activityOf(state.nodes["opal-id"]!)).toBe("thinking");
    const writing = build([{ type: "text-delta", agent: OPAL, delta: "I" }], state);
    expect(activityOf(writing.nodes["opal-id"]!)).toBe("writing");
    expect(agentTreeReducer(writing, { type: "text-delta", agent: OPAL, delta: " found" })).toBe(writing);
    state = build(
      [
        { type: "tool-call-start", agent: OPAL, callId: "g1", name: "grep" },
        {
          type: "tool-start",
          agent: OPAL,
          callId: "g1",
          name: "grep",
          input: { pattern: "TODO", path: "src" },
        },
      ],
      writing,
    );
    expect(activityOf(state.nodes["opal-id"]!)).toBe("grep TODO in src");
    state = build(
      [
        {
          type: "tool-end",
          agent: OPAL,
          callId: "g1",
          name: "grep",
          output: "",
          isError: false,
          durationMs: 5,
        },
      ],
      state,
    );
    expect(activityOf(state.nodes["opal-id"]!)).toBe("");
  });

  it("shows each agent's own usage and its subtree figure as core gives them, never a sum of its own", () => {
    const figure = (agentId: string, tokens: number, costUsd: number, below = 0) => ({
      agentId,
      subtree: { usage: usage(tokens, 0).usage, costUsd },
      descendants: { usage: usage(below, 0).usage, costUsd: 0 },
    });
    let state = build([
      ...NESTED,
      spent(OPAL, 1_000, 200, 0.01),
      // Core's total for Opal counts a step the panel never saw (400 + 100 tokens before these).
      spent(OPAL, 500, 100, 0.005, 0, { input: 1_900, output: 400, costUsd: 0.02 }),
      // Mica's step, with core's subtree figures for Mica, Quartz, Opal and the lead: none of
      // them is the sum of the rows the panel has (core counts agents the panel never saw).
      {
        ...spent(MICA, 100, 50, 0.001),
        subtreeTotals: [
          figure("mica-id", 150, 0.001),
          figure("quartz-id", 7_000, 0.07),
          figure("opal-id", 9_999, 0.09),
          figure("lead", 123_456, 1.5, 11_111),
        ],
      } as AgentTreeInput,
      spent(JADE, 10, 5, 0),
    ]);
    expect(totalTokens(state.nodes["opal-id"]!.own.usage)).toBe(2_300);
    expect(state.nodes["opal-id"]!.own.costUsd).toBeCloseTo(0.02);
    expect(totalTokens(state.nodes["quartz-id"]!.subtree!.usage)).toBe(7_000);
    expect(totalTokens(state.nodes["opal-id"]!.subtree!.usage)).toBe(9_999);
    // The panel's Σ is the lead's descendants as core counted them.
    expect(totalTokens(state.agentsTotal.usage)).toBe(11_111);
    const rows = buildTreeRows({
      nodes: state.nodes,
      roots: state.roots,
      total: state.agentsTotal,
      teams: undefined,
      now: 0,
      maxDepth: 4,
    });
    const opal = rows.rows.find((row) => row.kind === "agent" && row.agentId === "opal-id");
    expect(opal?.kind === "agent" && opal.text.subtree).toBe("Σ 10k $0.090");
    expect(totalTokens(rows.total.usage)).toBe(11_111);
    // A completed child: core's figure for its whole subtree.
    state = build(completed(OPAL, QUARTZ, "completed", 5_000, { tokens: 5_000, costUsd: 0.05 }), state);
    expect(totalTokens(state.nodes["quartz-id"]!.subtree!.usage)).toBe(5_000);
    expect(totalTokens(state.nodes["opal-id"]!.subtree!.usage)).toBe(9_999);
  });

  it("restarts the clock of a resumed agent and keeps finished agents until clearFinished", () => {
    let state = build([...NESTED, ...completed(LEAD, JADE, "completed", 8_000, { tokens: 1, costUsd: 0 })]);
    expect(state.nodes["jade-id"]).toMatchObject({ startedAt: 2_000, endedAt: 8_000 });
    state = build(
      [
        {
          type: "subagent-status-changed",
          agent: LEAD,
          childId: "jade-id",
          nickname: "Jade",
          status: "running",
          child: { agentId: "jade-id", depth: 1 },
          state: { lifecycle: "running" },
          at: 9_000,
        },
      ],
      state,
    );
    expect(state.nodes["jade-id"]).toMatchObject({
      lifecycle: "running",
      startedAt: 9_000,
      endedAt: undefined,
    });
    state = build(
      [
        ...completed(LEAD, JADE, "completed", 10_000, { tokens: 1, costUsd: 0 }),
        ...completed(OPAL, QUARTZ, "completed", 10_000, { tokens: 1, costUsd: 0 }),
        ...completed(LEAD, OPAL, "completed", 10_000, { tokens: 1, costUsd: 0 }),
      ],
      state,
    );
    // Opal and Quartz have finished but Mica still runs: they stay, so Mica keeps its place.
    const cleared = clearFinished(state);
    expect(Object.keys(cleared.nodes).sort()).toEqual(["mica-id", "opal-id", "quartz-id"]);
    expect(cleared.roots).toEqual(["opal-id"]);
    const later = clearFinished(
      build(completed(QUARTZ, MICA, "completed", 11_000, { tokens: 1, costUsd: 0 }), cleared),
    );
    expect(later).toMatchObject({ nodes: {}, roots: [] });
    expect(clearFinished(later)).toBe(later);
  });

  it("places an agent first seen by its own events under its parent once the spawn arrives", () => {
    let state = build([{ type: "text-delta", agent: QUARTZ, delta: "x", at: 5 }]);
    expect(state.roots).toEqual(["quartz-id"]);
    state = build([...spawned(LEAD, OPAL), ...spawned(OPAL, QUARTZ)], state);
    expect(state.roots).toEqual(["opal-id"]);
    expect(state.nodes["opal-id"]?.children).toEqual(["quartz-id"]);
    expect(state.nodes["quartz-id"]).toMatchObject({
      parentId: "opal-id",
      nickname: "Quartz",
      streaming: "writing",
    });
  });
});
