import type { AgentTag, TeamSnapshot } from "@nyzhi/core";
import { describe, expect, it, vi } from "vitest";
import { formatTokens } from "../status/format-usage.js";
import { KEYS, press } from "../test-support/keys.js";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import {
  completed,
  JADE,
  LEAD,
  ledgerOf,
  MICA,
  OPAL,
  QUARTZ,
  spawned,
  spentIn,
} from "./__fixtures__/agent-events.js";
import { AgentTree } from "./agent-tree.js";
import { buildTreeRows } from "./agent-tree-rows.js";
import type { AgentTreeInput } from "./agent-tree-types.js";
import { createAgentTreeState, reduceAgentTree } from "./agents-reducer.js";

const ONYX: AgentTag = { agentId: "onyx-id", depth: 1, nickname: "Onyx", role: "planner" };
const RUBY: AgentTag = { agentId: "ruby-id", depth: 1, nickname: "Ruby", role: "worker" };
const BOB: AgentTag = { agentId: "bob-id", depth: 1, nickname: "bob", role: "reviewer" };

/**
 * Opal › Quartz › Mica three levels deep, and one agent in every status: running (Opal), awaiting
 * approval (Quartz), completed (Mica), errored (Jade), pending (Onyx), shut down (Ruby), and the
 * teammate bob idle in team alpha.
 */
const LEDGER = ledgerOf({
  "opal-id": "lead",
  "quartz-id": "opal-id",
  "mica-id": "quartz-id",
  "jade-id": "lead",
  "onyx-id": "lead",
  "ruby-id": "lead",
  "bob-id": "lead",
});

const STATE = reduceAgentTree(createAgentTreeState(), [
  ...spawned(LEAD, OPAL, 1_000),
  ...spawned(OPAL, QUARTZ, 2_000),
  ...spawned(QUARTZ, MICA, 3_000),
  ...spawned(LEAD, JADE, 4_000, "openai/gpt-4.1-mini"),
  spawned(LEAD, ONYX, 5_000)[0]!,
  ...spawned(LEAD, RUBY, 6_000),
  ...spawned(LEAD, BOB, 7_000),
  spentIn(LEDGER, OPAL, 1_000, 234, 0.012),
  spentIn(LEDGER, QUARTZ, 2_000, 300, 0.02),
  spentIn(LEDGER, MICA, 100, 50, 0.001),
  spentIn(LEDGER, BOB, 400, 100, 0.004),
  { type: "tool-start", agent: OPAL, callId: "g", name: "grep", input: { pattern: "TODO", path: "src" } },
  {
    type: "approval-requested",
    id: "approval-1",
    agent: QUARTZ,
    callId: "w",
    tool: "write",
    input: { file_path: "src/a.ts" },
    preview: "",
  },
  ...completed(QUARTZ, MICA, "completed: three call sites", 30_000, {
    tokens: 150,
    costUsd: 0.001,
    result: "three call sites",
  }),
  ...completed(LEAD, JADE, "errored: the model request failed", 50_000, { tokens: 0, costUsd: 0 }),
  ...completed(LEAD, RUBY, "shutdown", 20_000, { tokens: 0, costUsd: 0 }),
  {
    type: "subagent-status-changed",
    agent: LEAD,
    childId: "bob-id",
    nickname: "bob",
    status: "idle",
    child: { agentId: "bob-id", depth: 1 },
    state: { lifecycle: "idle" },
    at: 40_000,
  },
]);

const TEAMS: TeamSnapshot = {
  teams: [
    {
      name: "alpha",
      leadUnread: 1,
      board: { open: 3, claimed: 1, done: 4 },
      members: [
        { name: "bob", agentId: "bob-id", role: "reviewer", state: "idle", unread: 2 },
        { name: "ann", agentId: undefined, role: undefined, state: "working", unread: 0 },
      ],
    },
  ],
};

const now = () => 75_000;

describe("AgentTree", () => {
  it("nests three levels deep with every status, subtree totals, and teammates under their team", () => {
    const { lastFrame, unmount } = renderAtWidth(<AgentTree state={STATE} teams={TEAMS} now={now} />, 80);
    expect(lastFrame()).toBe(
      [
        "Agents · 3 working · 3 finished · Σ 4.2k $0.037",
        "›1 ⠋ Opal (explorer)      running        grep TODO in src    1:14  Σ3.7k  $0.033",
        " 2 ?   Quartz (worker)    approval       write src/a.ts      1:13  Σ2.5k  $0.021",
        " 3 ✓     Mica (explorer)  done           three call sites    0:27    150  $0.001",
        " 4 ✗ Jade (worker)        error          the model request…  0:46",
        " 5 ◌ Onyx (planner)       pending                            1:10",
        " 6 ■ Ruby (worker)        stopped                            0:14",
        "team alpha · board 3 open · 1 claimed · 4 done · ✉ 1 for you",
        " 7 ○   bob (reviewer)     idle      ✉ 2                      0:33    500  $0.004",
        "   ⠋   ann                working",
        "↑↓ or 1–9 select · enter open transcript",
      ].join("\n"),
    );
    unmount();
  });

  it("shows own and subtree figures side by side, full status words and the model when there is room", () => {
    const { lastFrame, unmount } = renderAtWidth(<AgentTree state={STATE} now={now} />, 140);
    const lines = lastFrame()!.split("\n");
    expect(lines[1]).toBe(
      "›1 ⠋ Opal (explorer)      running            grep TODO in src          1:14  haiku-4-5     1.2k  $0.012  Σ 3.7k $0.033",
    );
    expect(lines[2]).toContain("awaiting approval");
    expect(lines[2]).toContain("Σ 2.5k $0.021");
    expect(lines[3]).toContain("completed");
    expect(lines[4]).toContain("errored");
    expect(lines[4]).toContain("gpt-4.1-mini");
    expect(lines[6]).toContain("shut down");
    unmount();
  });

  it("stays readable at 40 columns: the activity, model and cost give way to name, status and tokens", () => {
    const { lastFrame, unmount } = renderAtWidth(<AgentTree state={STATE} teams={TEAMS} now={now} />, 40);
    expect(lastFrame()).toBe(
      [
        "Agents · 3 working · 3 finished · Σ 4.2…",
        "›1 ⠋ Opal (explor…  running        Σ3.7k",
        " 2 ?   Quartz (wo…  approval       Σ2.5k",
        " 3 ✓     Mica (ex…  done             150",
        " 4 ✗ Jade (worker)  error",
        " 5 ◌ Onyx (planne…  pending",
        " 6 ■ Ruby (worker)  stopped",
        "team alpha · board 3 open · 1 claimed ·…",
        " 7 ○   bob (revie…  idle      ✉ 2    500",
        "   ⠋   ann          working",
        "↑↓ 1–9 select · enter open",
      ].join("\n"),
    );
    expect(widestLine(lastFrame())).toBeLessThanOrEqual(40);
    unmount();
  });

  it("dims finished rows", () => {
    const { rows } = buildTreeRows({
      nodes: STATE.nodes,
      roots: STATE.roots,
      total: STATE.agentsTotal,
      teams: TEAMS,
      now: 0,
      maxDepth: 4,
    });
    const finished = rows.flatMap((row) => (row.kind === "agent" && row.finished ? [row.text.name] : []));
    expect(finished).toEqual(["Mica (explorer)", "Jade (worker)", "Ruby (worker)"]);
  });

  it("selects with ↑/↓ and number keys and opens the selected agent with Enter", async () => {
    const onSelect = vi.fn();
    const onOpen = vi.fn();
    const { lastFrame, stdin, unmount } = renderAtWidth(
      <AgentTree state={STATE} teams={TEAMS} now={now} onSelect={onSelect} onOpen={onOpen} />,
      80,
    );
    await press(stdin, KEYS.down, KEYS.down);
    expect(lastFrame()!.split("\n")[3]).toMatch(/^›3 ✓/);
    await press(stdin, KEYS.up);
    await press(stdin, KEYS.enter);
    expect(onOpen).toHaveBeenLastCalledWith("quartz-id");
    await press(stdin, "7");
    expect(lastFrame()!.split("\n")[8]).toMatch(/^›7 ○ {3}bob/);
    await press(stdin, KEYS.enter);
    expect(onOpen).toHaveBeenLastCalledWith("bob-id");
    expect(onSelect.mock.calls.map(([id]) => id)).toEqual(["quartz-id", "mica-id", "quartz-id", "bob-id"]);
    await press(stdin, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up);
    expect(lastFrame()!.split("\n")[1]).toMatch(/^›1/);
    unmount();
  });

  it("opens the row a number selected when the number and Enter arrive in one read", async () => {
    const onOpen = vi.fn();
    const { stdin, unmount } = renderAtWidth(
      <AgentTree state={STATE} teams={TEAMS} now={now} onOpen={onOpen} />,
      80,
    );
    await press(stdin, `3${KEYS.enter}`);
    expect(onOpen).toHaveBeenLastCalledWith("mica-id");
    unmount();
  });

  it("caps the indentation at maxDepth", () => {
    const { lastFrame, unmount } = renderAtWidth(
      <AgentTree state={STATE} now={now} maxDepth={2} isActive={false} />,
      80,
    );
    expect(lastFrame()!.split("\n")[3]).toMatch(/^ 3 ✓ {3}Mica/);
    unmount();
  });
});

describe("an agent's budget and worktree in its row (issue 30)", () => {
  const CHILD: AgentTag = { agentId: "topaz-id", depth: 1, nickname: "Topaz", role: "worker" };
  const [spawnEvent, running] = spawned(LEAD, CHILD, 1_000);
  const withBudget = reduceAgentTree(createAgentTreeState(), [
    {
      ...(spawnEvent as Extract<typeof spawnEvent, { type: "subagent-spawned" }>),
      budget: { tokens: 5_000, scope: "agent" },
      worktree: { branch: "nyzhi/agent-topaz", path: "/tmp/wt/topaz" },
    },
    running!,
    spentIn(ledgerOf({ "topaz-id": "lead" }), CHILD, 2_500, 500, 0.01),
  ]);

  it("shows spent of budget and the branch while it runs", () => {
    const { lastFrame, unmount } = renderAtWidth(<AgentTree state={withBudget} now={() => 5_000} />, 140);
    const row =
      lastFrame()!
        .split("\n")
        .find((line) => line.includes("Topaz")) ?? `no Topaz row in:\n${lastFrame()}`;
    expect(row).toContain(`${formatTokens(3_000)}/${formatTokens(5_000)}`);
    expect(row).toContain("⎇ nyzhi/agent-topaz");
    unmount();
  });

  it("offers diff, merge and discard once its changes wait for a decision", () => {
    const finished = reduceAgentTree(withBudget, [
      {
        type: "subagent-completed",
        agent: LEAD,
        childId: CHILD.agentId,
        nickname: "Topaz",
        role: "worker",
        status: "completed: done",
        child: { agentId: CHILD.agentId, depth: 1 },
        state: { lifecycle: "completed", detail: "done" },
        result: "done",
        usage: { inputTokens: 2_500, outputTokens: 500, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.01,
        worktree: {
          branch: "nyzhi/agent-topaz",
          path: "/tmp/wt/topaz",
          base: "abc",
          diffStat: "1 file, +2 -1",
        },
        at: 9_000,
      } as AgentTreeInput,
    ]);
    const { lastFrame, unmount } = renderAtWidth(<AgentTree state={finished} now={() => 10_000} />, 140);
    const row =
      lastFrame()!
        .split("\n")
        .find((line) => line.includes("Topaz")) ?? `no Topaz row in:\n${lastFrame()}`;
    expect(row).toContain("⎇ nyzhi/agent-topaz · 1 file, +2 -1 · d diff  m merge  X discard");
    unmount();
  });
});
