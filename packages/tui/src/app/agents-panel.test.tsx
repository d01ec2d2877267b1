import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveDirs } from "@nyzhi/config";
import { type AgentEvent, type AgentTag, Mailbox, TaskBoard, TeamStore } from "@nyzhi/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  aborted,
  answering,
  fakeSession,
  LEAD,
  type Turn,
  turnEnd,
  until,
  usage,
} from "../test-support/fake-session.js";
import { KEYS, press } from "../test-support/keys.js";
import { type RenderedApp, renderApp } from "../test-support/render-app.js";
import { usageEvent } from "../test-support/usage-events.js";
import { osc52 } from "./clipboard.js";

const OPAL: AgentTag = { agentId: "opal-id", depth: 1, nickname: "Opal", role: "explorer" };
const QUARTZ: AgentTag = { agentId: "quartz-id", depth: 2, nickname: "Quartz", role: "worker" };
const CTRL_T = "\x14";
const CTRL_B = "\x02";

function spawn(parent: AgentTag, child: AgentTag): AgentEvent[] {
  return [
    {
      type: "subagent-spawned",
      agent: parent,
      childId: child.agentId,
      nickname: child.nickname ?? "",
      role: child.role ?? "",
      depth: child.depth,
      unknownRole: false,
      model: "claude-haiku-4-5",
    },
    {
      type: "subagent-status-changed",
      agent: parent,
      childId: child.agentId,
      nickname: "",
      status: "running",
      child: { agentId: child.agentId, depth: 1 },
      state: { lifecycle: "running" },
    },
  ];
}

function finish(parent: AgentTag, child: AgentTag, result: string): AgentEvent[] {
  return [
    {
      type: "subagent-status-changed",
      agent: parent,
      childId: child.agentId,
      nickname: "",
      status: "completed",
      child: { agentId: child.agentId, depth: 1 },
      state: { lifecycle: "completed" },
    },
    {
      type: "subagent-completed",
      agent: parent,
      childId: child.agentId,
      nickname: child.nickname ?? "",
      role: child.role ?? "",
      status: `completed: ${result}`,
      child: { agentId: child.agentId, depth: 1 },
      state: { lifecycle: "completed" },
      result,
      usage,
      costUsd: 0,
    },
  ];
}

/** A turn where Opal (explorer) spawns Quartz (worker); both finish when `release` is called. */
function delegating(): { turn: Turn; release: () => void; signal: () => AbortSignal | undefined } {
  let release: () => void = () => undefined;
  let seen: AbortSignal | undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const turn: Turn = async function* (_input, signal) {
    seen = signal;
    yield { type: "turn-start", agent: LEAD, turnId: "t", input: "" };
    yield* spawn(LEAD, OPAL);
    yield* spawn(OPAL, QUARTZ);
    yield usageEvent(
      QUARTZ,
      1,
      { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 },
      0,
    );
    await Promise.race([gate, aborted(signal)]);
    yield* finish(OPAL, QUARTZ, "found two callers");
    yield* finish(LEAD, OPAL, "mapped the code");
    yield turnEnd();
    return { reason: "completed", steps: 1, text: "", usage, costUsd: 0 };
  };
  return { turn, release: () => release(), signal: () => seen };
}

function fakeManager() {
  return {
    childrenOf: () => [],
    info: (id: string) => ({ id }),
    close: vi.fn((_id: string) => ({ status: "shutdown", nickname: "Opal" })),
    sendInput: vi.fn((_id: string, _text: string) => ({ status: "sent" as const, nickname: "Opal" })),
    resume: vi.fn(async (_id: string, _text: string) => ({ status: "running", nickname: "Opal" })),
  };
}

async function waitFor(view: RenderedApp, text: string): Promise<string> {
  await until(() => view.lastFrame()!.includes(text), 3000).catch(() => {
    throw new Error(`"${text}" not shown; last frame:\n${view.lastFrame()}`);
  });
  return view.lastFrame()!;
}

describe("the agents panel in the app", () => {
  it("shows spawned agents nested, opens one, and steers it: input, stop, copy", async () => {
    const { turn, release } = delegating();
    const manager = fakeManager();
    const { session } = fakeSession(turn, { manager });
    const view = renderApp(session);
    await press(view.stdin, "map the code", KEYS.enter);
    const frame = await waitFor(view, "Agents · 2 working");
    const lines = frame.split("\n").slice(frame.split("\n").findIndex((line) => line.startsWith("Agents ·")));
    const opal = lines.find((line) => line.includes("Opal (explorer)"))!;
    const quartz = lines.find((line) => line.includes("Quartz (worker)"))!;
    expect(quartz.indexOf("Quartz")).toBeGreaterThan(opal.indexOf("Opal"));
    expect(quartz).toContain("1.5k");
    // The input has the keys until Ctrl+T gives them to the panel.
    expect(frame).toContain("esc interrupt");
    await press(view.stdin, CTRL_T);
    await waitFor(view, "esc input · ctrl+t hide");
    await press(view.stdin, KEYS.enter);
    await waitFor(view, "lead › Opal (explorer)");
    await press(view.stdin, "i");
    await waitFor(view, "Message to Opal (explorer)");
    await press(view.stdin, "look at src too", KEYS.enter);
    await until(() => manager.sendInput.mock.calls.length === 1);
    expect(manager.sendInput.mock.calls[0]).toEqual(["opal-id", "look at src too"]);
    await waitFor(view, "Sent to Opal: it reads it at its next step.");
    expect(view.lastFrame()).toContain("› look at src too");
    await press(view.stdin, "x");
    await until(() => manager.close.mock.calls.length === 1);
    expect(manager.close.mock.calls[0]?.[0]).toBe("opal-id");
    await waitFor(view, "Stopped Opal and its subagents.");
    release();
    await waitFor(view, "c copy result");
    await press(view.stdin, "c");
    await waitFor(view, "Copied Opal (explorer)'s result to the clipboard.");
    expect(view.frames).toContain(osc52("mapped the code"));
    // Esc: back to the tree, then the keys go back to the input.
    await press(view.stdin, KEYS.escape);
    await waitFor(view, "esc input · ctrl+t hide");
    await press(view.stdin, KEYS.escape);
    await waitFor(view, "enter send");
  });

  it("gives text typed at the tree (not a row's number) back to the input, with the keys", async () => {
    const { turn, release } = delegating();
    const { session } = fakeSession(turn, { manager: fakeManager() });
    const view = renderApp(session);
    await press(view.stdin, "map the code", KEYS.enter);
    await waitFor(view, "Agents · 2 working");
    await press(view.stdin, CTRL_T);
    await waitFor(view, "esc input · ctrl+t hide");
    await press(view.stdin, "2");
    await press(view.stdin, "hello");
    await waitFor(view, "› hello");
    await press(view.stdin, " there");
    await waitFor(view, "› hello there");
    expect(view.lastFrame()).not.toContain("esc input · ctrl+t hide");
    release();
  });

  it("keeps finished agents until the next prompt, and Ctrl+T hides and shows the panel", async () => {
    const { turn, release } = delegating();
    // The next prompt's turn spawns nobody: the panel then has nothing left to show.
    let turns = 0;
    const plain = answering();
    const firstDelegates: Turn = (input, signal) =>
      turns++ === 0 ? turn(input, signal) : plain(input, signal);
    const { session } = fakeSession(firstDelegates, { manager: fakeManager() });
    const view = renderApp(session);
    await press(view.stdin, "map the code", KEYS.enter);
    await waitFor(view, "Agents · 2 working");
    release();
    await waitFor(view, "Agents · 0 working · 2 finished");
    await press(view.stdin, CTRL_T);
    await waitFor(view, "ctrl+t hide");
    await press(view.stdin, CTRL_T);
    await until(() => !view.lastFrame()!.includes("Agents ·"));
    await press(view.stdin, CTRL_T);
    await waitFor(view, "Agents · 0 working · 2 finished");
    await press(view.stdin, KEYS.escape);
    await waitFor(view, "enter send");
    await press(view.stdin, "thanks", KEYS.enter);
    await until(() => !view.lastFrame()!.includes("Agents ·"));
  });

  it("Ctrl+B sends the turn to the background: the input is free, a prompt waits for it, /bg lists it", async () => {
    const { turn, release, signal } = delegating();
    const { session, calls } = fakeSession(turn, { manager: fakeManager() });
    const view = renderApp(session);
    await press(view.stdin, "long job", KEYS.enter);
    await waitFor(view, "esc interrupt");
    await press(view.stdin, CTRL_B);
    await waitFor(view, "The turn runs in the background (/bg lists it)");
    await waitFor(view, "1 in background (/bg)");
    expect(view.lastFrame()).toContain("enter send");
    // Esc no longer interrupts it.
    await press(view.stdin, KEYS.escape);
    expect(signal()?.aborted).toBe(false);
    await press(view.stdin, "/bg", KEYS.enter);
    await waitFor(view, "#1 running");
    await press(view.stdin, "next task", KEYS.enter);
    await waitFor(view, "queued: next task");
    expect(calls.queued).toEqual([]);
    expect(calls.turns).toHaveLength(1);
    release();
    await until(() => calls.turns.length === 2);
    expect(calls.turns[1]).toEqual([{ type: "text", text: "next task" }]);
    await waitFor(view, "Background turn #1 ended (completed): long job");
  });

  it("raises a subagent's approval tagged with its nickname while its row awaits approval", async () => {
    const { turn } = delegating();
    const { session, calls } = fakeSession(turn, { manager: fakeManager() });
    const view = renderApp(session);
    await press(view.stdin, "map the code", KEYS.enter);
    await waitFor(view, "Agents · 2 working");
    view.bridge.emit({
      type: "approval-requested",
      id: "approval-1",
      agent: QUARTZ,
      callId: "c1",
      tool: "write",
      input: { file_path: "a.txt" },
      preview: "a.txt",
    });
    await waitFor(view, "Quartz (worker) · depth 2 wants to use write");
    await until(() => /Quartz \(worker\)\s+awaiting approval/.test(view.lastFrame()!), 3000);
    // It opened within a second of the Enter typed for the input: ctrl+g gives it the keys.
    await press(view.stdin, "\x07", "y");
    await until(() => calls.answers.length === 1);
    expect(calls.answers).toEqual([{ id: "approval-1", reply: "allow" }]);
  });
});

describe("agent commands", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "nyzhi-agent-commands-"));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const agentConfig = { agents: { enabled: true, max_depth: 2, roles: {} } };

  it("/subagent-config sets, lists and resets a role's model for the session", async () => {
    const { session } = fakeSession(answering(), { agentConfig });
    const models: Record<string, string> = {};
    Object.assign(session, {
      subagentModels: () => ({ ...models }),
      setSubagentModel: (role: string, model: string | undefined) => {
        if (model) models[role] = model;
        else delete models[role];
      },
    });
    const view = renderApp(session, { env: { NYZHI_HOME: home } });
    await press(view.stdin, "/subagent-config set explorer other-model", KEYS.enter);
    await waitFor(view, "The next explorer subagents use other-model (this session).");
    expect(models).toEqual({ explorer: "other-model" });
    await press(view.stdin, "/subagent-config list", KEYS.enter);
    await waitFor(view, "explorer → other-model");
    await press(view.stdin, "/subagent-config set nobody x", KEYS.enter);
    await waitFor(view, "No role named nobody; /agents lists them.");
    await press(view.stdin, "/subagent-config reset explorer", KEYS.enter);
    await waitFor(view, "explorer subagents use their configured model again.");
    expect(models).toEqual({});
  });

  it("/agents shows the panel and lists every role with its source, as nyz agents does", async () => {
    const { session } = fakeSession(answering(), { agentConfig });
    const view = renderApp(session, { env: { NYZHI_HOME: home } });
    await press(view.stdin, "/agents", KEYS.enter);
    const frame = await waitFor(view, "Roles (ctrl+t shows or hides the panel):");
    expect(frame).toMatch(/explorer +enabled +built-in \[read-only\]/);
    // No agent runs: the empty panel does not take the keys, and the screen says why.
    expect(await waitFor(view, "No agents are running")).not.toContain("Agents · 0 working");
  });

  it("/team shows members, unread mail and the board; /teams-config shows the files and sets a model", async () => {
    const dirs = resolveDirs({ NYZHI_HOME: home });
    const store = new TeamStore(dirs);
    const mailbox = new Mailbox(dirs);
    const board = new TaskBoard(dirs);
    await store.create({ name: "alpha", members: [{ name: "ruby", role: "reviewer" }] });
    await mailbox.send("alpha", "ruby", { from: "team-lead", text: "review a.ts" });
    await board.create("alpha", { subject: "review a.ts" });
    const teams = { teamNames: () => ["alpha"], teammates: () => [], store, mailbox, board };
    const { session } = fakeSession(answering(), { agentConfig, teams });
    const view = renderApp(session, { env: { NYZHI_HOME: home } });
    await press(view.stdin, "/team", KEYS.enter);
    let frame = await waitFor(view, "Team alpha · board 1 open · 0 claimed · 0 done");
    expect(frame).toContain("ruby (reviewer) — pending · ✉ 1 unread");
    expect(frame).toContain("- [pending] #1 (unassigned) -- review a.ts");
    // The panel read the teams once as the session opened.
    frame = await waitFor(view, "team alpha · board 1 open · 0 claimed · 0 done");
    await press(view.stdin, "/teams-config", KEYS.enter);
    frame = await waitFor(view, `alpha: ${store.paths("alpha").config}`);
    expect(frame).toContain("ruby — reviewer · pending");
    await press(view.stdin, "/teams-config set alpha ruby fast-model", KEYS.enter);
    await waitFor(view, "alpha/ruby uses fast-model from its next start");
    const saved = JSON.parse(await readFile(store.paths("alpha").config, "utf8")) as {
      members: { name: string; model?: string }[];
    };
    expect(saved.members.find((member) => member.name === "ruby")?.model).toBe("fast-model");
  });
});

describe("team state in the panel", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "nyzhi-team-state-"));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });
  const agentConfig = { agents: { enabled: true, max_depth: 2, roles: {} } };

  it("follows core's team-state events: a teammate's status shows at once, and the files are never polled", async () => {
    const dirs = resolveDirs({ NYZHI_HOME: home });
    const store = new TeamStore(dirs);
    await store.create({ name: "alpha", members: [{ name: "ruby", role: "reviewer" }] });
    let reads = 0;
    const counted = {
      find: (team: string) => {
        reads += 1;
        return store.find(team);
      },
    };
    const teams = {
      teamNames: () => ["alpha"],
      teammates: () => [],
      store: counted,
      mailbox: new Mailbox(dirs),
      board: new TaskBoard(dirs),
    };
    const { session } = fakeSession(answering(), { agentConfig, teams });
    const view = renderApp(session, { env: { NYZHI_HOME: home } });
    await waitFor(view, "team alpha · board 0 open · 0 claimed · 0 done");
    const state = (member: "working" | "idle", unread: number): AgentEvent => ({
      type: "team-state",
      agent: LEAD,
      changes: ["status"],
      teams: [
        {
          name: "alpha",
          leadUnread: 0,
          board: { open: 2, claimed: 1, done: 0 },
          members: [{ name: "ruby", agentId: undefined, role: "reviewer", state: member, unread }],
        },
      ],
    });
    // The files still say "pending": what the panel shows is the event's.
    view.bridge.emit(state("working", 0));
    let frame = await waitFor(view, "team alpha · board 2 open · 1 claimed · 0 done");
    expect(frame).toMatch(/ruby \(reviewer\)\s+working/);
    view.bridge.emit(state("idle", 3));
    frame = await waitFor(view, "✉ 3");
    expect(frame).toMatch(/ruby \(reviewer\)\s+idle/);
    // One read when the session opened; nothing since.
    expect(reads).toBe(1);
  });
});

describe("copy to the clipboard", () => {
  it("is the OSC 52 escape with the text in base64", () => {
    expect(osc52("hé")).toBe(`\x1b]52;c;${Buffer.from("hé").toString("base64")}\x07`);
  });
});
