import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, MockResponse, RecordedRequest, Rule } from "@nyzhi/mock-llm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * The agents panel of the interactive app in a real terminal (tmux), through the built `nyz`,
 * against the mock LLM. Set NYZHI_WRITE_AGENTS_CAPTURE=<file> to save the screen with four nested
 * agents running (docs/agents-panel-capture.txt).
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";
/** Each child is told apart by its role's system prompt. */
const SYSTEM = {
  default: "You are a sub-agent started by another nyzhi agent",
  explorer: "You are Scout",
  planner: "You are Compass",
  reviewer: "You are Lens, a code reviewer",
} as const;
type Role = keyof typeof SYSTEM;

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-e2e-agents-panel-"));
  await mkdir(join(workspace, ".git"));
  home = await tempHome();
  // Spawning and waiting run without asking, so the only dialog is the one a test provokes.
  await mkdir(join(home, "config"), { recursive: true });
  await writeFile(
    join(home, "config", "config.toml"),
    '[agent.trust]\nauto_approve = ["spawn_agent", "wait", "close_agent", "send_input"]\n',
  );
});
closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

async function openTerminal(rules: Rule[]): Promise<TmuxTerminal> {
  mock = await startScenario({ rules });
  terminal = await TmuxTerminal.start({
    columns: 120,
    rows: 40,
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: workspace,
      NYZHI_LOG: "silent",
      ...anthropicEnv(mock, home),
    },
  });
  await terminal.startNyz();
  await terminal.waitForText(READY);
  return terminal;
}

const spawnCall = (role: Role, message: string) => ({
  name: "spawn_agent",
  arguments: { agent_type: role, message },
});

function usage(inputTokens: number, outputTokens: number): NonNullable<MockResponse["usage"]> {
  return { inputTokens, outputTokens, cacheReadTokens: 0 };
}

/** The lead spawns `calls`, waits for all of them, then answers `done`. */
function leadRules(prompt: string, calls: ReturnType<typeof spawnCall>[], done: string): Rule[] {
  return [
    {
      match: { system: LEAD, lastUser: prompt, lastIsToolResult: false },
      times: 1,
      response: { toolCalls: calls },
    },
    {
      match: { system: LEAD, lastUser: prompt, lastIsToolResult: true },
      times: 1,
      response: { toolCalls: [{ name: "wait", arguments: { mode: "all", timeout_ms: 120_000 } }] },
    },
    { match: { system: LEAD, lastUser: prompt }, response: { text: done } },
  ];
}

/** The agents panel's rows on a screen: the lines under its "Agents ·" header, above the input. */
function panelRows(screen: string): string[] {
  const lines = screen.split("\n");
  const header = lines.findLastIndex((line) => line.startsWith("Agents ·"));
  if (header < 0) return [];
  const end = lines.findIndex((line, index) => index > header && line.startsWith("╭"));
  return lines.slice(header + 1, end < 0 ? undefined : end);
}

/** The panel row of the agent with `role` ("Opal (default)"), or undefined. */
function rowOf(screen: string, role: Role): string | undefined {
  return panelRows(screen).find((line) => line.includes(`(${role})`));
}

/** The number a row is selected by (1–9). */
function numberOf(screen: string, role: Role): string {
  const number = rowOf(screen, role)?.match(/^.(\d) /)?.[1];
  if (!number) throw new Error(`no numbered row for ${role} on:\n${screen}`);
  return number;
}

const STATUS = /(running|completed|shut down|awaiting approval|pending|errored)/;

function statusOf(row: string | undefined): string | undefined {
  return row?.match(STATUS)?.[1];
}

function requestsOf(system: string): RecordedRequest[] {
  return (mock?.requests ?? []).filter((request) => request.system?.includes(system));
}

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Quits with /exit once the input has the keys (the idle footer shows). */
async function exitApp(term: TmuxTerminal): Promise<void> {
  await term.waitFor(
    (screen) => /ctrl\+k palette · (shift\+tab mode · )?ctrl\+t agents/.test(screen),
    20_000,
    "screen",
  );
  await term.typeLine("/exit");
  await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

describe.skipIf(!hasTmux())("the agents panel in a terminal", { timeout: 180_000 }, () => {
  it("shows three children and a grandchild nested, each running then completed, with the mock's token counts; a child's transcript opens", async () => {
    const term = await openTerminal([
      ...leadRules(
        "map the code",
        [
          spawnCall("default", "task-alpha: find the callers"),
          spawnCall("explorer", "task-beta: list the modules"),
          spawnCall("planner", "task-gamma: plan the change"),
        ],
        "All four reported.",
      ),
      {
        match: { system: SYSTEM.default, lastIsToolResult: false },
        response: {
          toolCalls: [spawnCall("reviewer", "task-delta: review the callers")],
          usage: usage(2000, 100),
        },
      },
      {
        match: { system: SYSTEM.default, lastIsToolResult: true },
        times: 1,
        response: { toolCalls: [{ name: "wait", arguments: {} }], usage: usage(2000, 100) },
      },
      {
        match: { system: SYSTEM.default },
        response: { text: "alpha done: two callers", usage: usage(2000, 100) },
      },
      {
        match: { system: SYSTEM.reviewer },
        response: {
          reasoning: ["Checking", " each", " caller", " in", " turn."],
          text: "delta done: looks right",
          chunkDelayMs: 800,
          usage: usage(1000, 200),
        },
      },
      {
        match: { system: SYSTEM.explorer },
        response: {
          text: ["beta ", "done: ", "five ", "modules"],
          chunkDelayMs: 1500,
          usage: usage(3000, 400),
        },
      },
      {
        match: { system: SYSTEM.planner },
        response: { text: "gamma done: three steps", usage: usage(5000, 600), delayMs: 6000 },
      },
    ]);
    await term.typeLine("map the code");
    const roles: Role[] = ["default", "reviewer", "explorer", "planner"];
    const seen: Record<Role, string[]> = { default: [], reviewer: [], explorer: [], planner: [] };
    let allRunning: string | undefined;
    const started = Date.now();
    for (;;) {
      const screen = await term.screen();
      for (const role of roles) {
        const status = statusOf(rowOf(screen, role));
        if (status && seen[role].at(-1) !== status) seen[role].push(status);
      }
      // The last screen with all four running (their clocks and activities have moved by then),
      // before the transcript reports a completion the rows show at their next refresh.
      if (roles.every((role) => statusOf(rowOf(screen, role)) === "running") && !screen.includes("⊖"))
        allRunning = screen;
      if (roles.every((role) => statusOf(rowOf(screen, role)) === "completed")) break;
      if (Date.now() - started > 60_000) throw new Error(`not all completed; last screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const role of roles) expect(seen[role], role).toEqual(["running", "completed"]);

    // Nesting: the grandchild sits right under its parent, one level further in.
    expect(allRunning, "a screen with all four running").toBeDefined();
    const rows = panelRows(allRunning!);
    // The three children in the order their spawns ran (parallel calls), the grandchild right under its parent.
    const index = (role: Role) => rows.findIndex((line) => line.includes(`(${role})`));
    expect(roles.map(index).sort()).toEqual([0, 1, 2, 3]);
    expect(index("reviewer")).toBe(index("default") + 1);
    const indent = (role: Role) => rowOf(allRunning!, role)!.search(/[A-Z][a-z]+ \(/);
    expect(indent("reviewer")).toBe(indent("default") + 2);
    expect(indent("explorer")).toBe(indent("default"));
    expect(indent("planner")).toBe(indent("default"));
    if (process.env.NYZHI_WRITE_AGENTS_CAPTURE) {
      const lines = allRunning!.trimEnd().split("\n");
      lines[0] = "$ nyz";
      await writeFile(process.env.NYZHI_WRITE_AGENTS_CAPTURE, `${lines.join("\n")}\n`);
    }

    // Tokens: each row's own count is what the mock reported for that agent; the parent adds Σ.
    const done = await term.waitForText("All four reported.");
    expect(rowOf(done, "default")).toMatch(/ 6\.3k .*Σ 7\.5k/);
    expect(rowOf(done, "reviewer")).toMatch(/ 1\.2k /);
    expect(rowOf(done, "explorer")).toMatch(/ 3\.4k /);
    expect(rowOf(done, "planner")).toMatch(/ 5\.6k /);
    expect(requestsOf(SYSTEM.default)).toHaveLength(3);

    // Ctrl+T gives the panel the keys; the explorer's row number selects it, Enter opens its transcript.
    await term.keys("C-t");
    await term.waitForText("esc input · ctrl+t hide");
    await term.type(numberOf(done, "explorer"));
    await term.keys("Enter");
    const transcript = await term.waitFor(
      (screen) =>
        /lead › [A-Z][a-z]+ \(explorer\)/.test(screen) && screen.includes("beta done: five modules"),
    );
    expect(transcript).toContain("r resume");
    // Its task at the top (issue 29): who gave it, its role and model, and the message — what its model got.
    expect(transcript).toMatch(/task from lead · explorer · [\w.-]+/);
    expect(transcript).toContain("  task-beta: list the modules");
    const explorerAsked = requestsOf(SYSTEM.explorer)[0]?.messages.find((message) => message.role === "user");
    expect(explorerAsked?.text).toContain("task-beta: list the modules");
    await term.keys("Escape");
    await term.waitFor((screen) => screen.includes("enter open transcript"), 20_000, "screen");
    await term.keys("Escape");
    await exitApp(term);
  });

  it("stopping one running child stops it and its grandchild while the other two complete", async () => {
    const term = await openTerminal([
      ...leadRules(
        "start the work",
        [
          spawnCall("default", "task-alpha: find the callers"),
          spawnCall("explorer", "task-beta: list the modules"),
          spawnCall("planner", "task-gamma: plan the change"),
        ],
        "Two finished, one stopped.",
      ),
      {
        match: { system: SYSTEM.default, lastIsToolResult: false },
        response: { toolCalls: [spawnCall("reviewer", "task-delta: review the callers")] },
      },
      {
        match: { system: SYSTEM.default, lastIsToolResult: true },
        response: { toolCalls: [{ name: "wait", arguments: { timeout_ms: 120_000 } }] },
      },
      { match: { system: SYSTEM.reviewer }, response: { fault: { type: "hang" } } },
      { match: { system: SYSTEM.explorer }, response: { text: "beta done", delayMs: 6000 } },
      { match: { system: SYSTEM.planner }, response: { text: "gamma done", delayMs: 6000 } },
    ]);
    await term.typeLine("start the work");
    await term.waitFor(
      (screen) =>
        statusOf(rowOf(screen, "reviewer")) === "running" && statusOf(rowOf(screen, "default")) === "running",
      30_000,
      "screen",
    );
    await term.keys("C-t");
    await term.waitForText("esc input · ctrl+t hide");
    await term.type(numberOf(await term.screen(), "default"));
    await term.keys("Enter");
    await term.waitFor(
      (screen) =>
        /lead › [A-Z][a-z]+ \(default\)/.test(screen) && screen.includes("x stop (and its subagents)"),
      20_000,
      "screen",
    );
    const hanging = requestsOf(SYSTEM.reviewer)[0]!;
    expect(hanging.endedAt).toBeUndefined();
    await term.type("x");
    await term.waitForText("and its subagents.");
    await term.keys("Escape");
    const final = await term.waitFor(
      (screen) =>
        statusOf(rowOf(screen, "default")) === "shut down" &&
        statusOf(rowOf(screen, "reviewer")) === "shut down" &&
        statusOf(rowOf(screen, "explorer")) === "completed" &&
        statusOf(rowOf(screen, "planner")) === "completed",
      60_000,
      "screen",
    );
    expect(panelRows(final).filter((line) => STATUS.test(line))).toHaveLength(4);
    // The grandchild's request was cancelled, not left hanging.
    await until(() => hanging.endedAt !== undefined, 10_000);
    expect(requestsOf(SYSTEM.explorer)).toHaveLength(1);
    expect(requestsOf(SYSTEM.planner)).toHaveLength(1);
    await term.waitForText("Two finished, one stopped.");
    await term.keys("Escape");
    await exitApp(term);
  });

  it("a child's write raises the dialog tagged with its nickname; y applies it", async () => {
    const term = await openTerminal([
      ...leadRules("write the notes", [spawnCall("default", "task-write: write notes.txt")], "Notes are in."),
      {
        match: { system: SYSTEM.default, lastIsToolResult: false },
        response: {
          toolCalls: [{ name: "write", arguments: { file_path: "notes.txt", content: "from the child\n" } }],
        },
      },
      { match: { system: SYSTEM.default, lastIsToolResult: true }, response: { text: "notes written" } },
    ]);
    await term.typeLine("write the notes");
    const dialog = await term.waitFor(
      (screen) =>
        screen.includes("Allow once (y)") && statusOf(rowOf(screen, "default")) === "awaiting approval",
      30_000,
      "screen",
    );
    const nickname = rowOf(dialog, "default")!.match(/([A-Z][a-z]+) \(default\)/)![1]!;
    expect(dialog).toContain(`${nickname} (default) · depth 1 wants to use write`);
    await term.keys("y");
    await term.waitForText("Notes are in.");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("from the child\n");
    await exitApp(term);
  });

  it("input sent to a running child reaches its next request", async () => {
    await writeFile(join(workspace, "notes.txt"), "colour: blue\n");
    const term = await openTerminal([
      ...leadRules("read the notes", [spawnCall("default", "task-read: read notes.txt")], "Read."),
      {
        match: { system: SYSTEM.default, lastIsToolResult: false },
        response: { toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }], delayMs: 8000 },
      },
      { match: { system: SYSTEM.default, lastIsToolResult: true }, response: { text: "it says blue" } },
    ]);
    await term.typeLine("read the notes");
    await term.waitFor((screen) => statusOf(rowOf(screen, "default")) === "running", 30_000, "screen");
    await term.keys("C-t");
    await term.waitForText("esc input · ctrl+t hide");
    await term.keys("Enter");
    await term.waitFor((screen) => screen.includes("i send input"), 20_000, "screen");
    await term.type("i");
    await term.waitForText("Message to");
    await term.typeLine("also check the tests");
    await term.waitForText("it reads it at its next step.");
    expect(requestsOf(SYSTEM.default)).toHaveLength(1);
    await until(() => requestsOf(SYSTEM.default).length === 2);
    const next = requestsOf(SYSTEM.default)[1]!;
    expect(
      next.messages.filter((message) => message.role === "user").map((message) => message.text),
    ).toContain("also check the tests");
    await term.waitForText("Read.");
    await term.keys("Escape");
    await term.waitFor((screen) => screen.includes("enter open transcript"), 20_000, "screen");
    await term.keys("Escape");
    await exitApp(term);
  });

  it("/subagent-config set explorer other-model: the next explorer's requests use other-model", async () => {
    const term = await openTerminal([
      ...leadRules("explore it", [spawnCall("explorer", "task-beta: list the modules")], "Explored."),
      { match: { system: SYSTEM.explorer }, response: { text: "five modules" } },
    ]);
    await term.typeLine("/subagent-config set explorer other-model");
    await term.waitForText("The next explorer subagents use other-model (this session).");
    await term.typeLine("/subagent-config list");
    await term.waitForText("explorer → other-model");
    await term.typeLine("explore it");
    const screen = await term.waitForText("Explored.");
    expect(requestsOf(SYSTEM.explorer).map((request) => request.model)).toEqual(["other-model"]);
    expect(requestsOf(LEAD).at(-1)!.model).not.toBe("other-model");
    expect(rowOf(screen, "explorer")).toContain("other-model");
    await exitApp(term);
  });
});
