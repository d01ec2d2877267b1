import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, MockResponse } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";
const CHILD = { regex: "^(?!You are Nizzy)" };

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-e2e-budgets-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** One step of 2,000 tokens that calls `think`, saying `text`. */
const thinkingStep = (text: string): MockResponse => ({
  text,
  toolCalls: [{ name: "think", arguments: { thought: text } }],
  usage: { inputTokens: 1900, outputTokens: 100 },
});

/** Six steps of 2,000 tokens: 12,000 if nothing stops it. */
const twelveThousandTokens: MockResponse[] = [
  ...[1, 2, 3, 4, 5].map((n) => thinkingStep(`step ${n}`)),
  { text: "all counted", usage: { inputTokens: 1900, outputTokens: 100 } },
];

const waitAll = { name: "wait", arguments: { mode: "all", timeout_ms: 120_000 } };

describe("budgets through nyz exec", () => {
  it("stops a child with budget tokens 5000 that would spend 12,000 at its limit; the lead gets the partial answer and goes on", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "spawn_agent", arguments: { message: "count the lines", budget: { tokens: 5000 } } },
            ],
          },
        },
        { match: { system: LEAD, anyMessage: "budget exhausted" }, response: { text: "Lead carries on." } },
        { match: { system: LEAD, lastIsToolResult: true }, response: { toolCalls: [waitAll] } },
        // Matched on its task, not the last user message: the 80 % note becomes that.
        { match: { system: CHILD, anyMessage: "count the lines" }, response: twelveThousandTokens },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "count with a budget"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(0);
    const events = lines(result.stdout);
    const childRequests = mock.requests.filter((request) => !request.system?.includes(LEAD));
    // 2,000 tokens a step: the third crosses 5,000, so no fourth request is made.
    expect(childRequests).toHaveLength(3);
    // Told at 80 % (4,000 after the second step), in its next request.
    expect(childRequests[2]!.messages.map((message) => message.text).join("\n")).toMatch(
      /\[budget\] 80% of your budget is spent \(tokens 4,000 of 5,000\)/,
    );
    expect(events.find((event) => event.type === "subagent_spawned")).toMatchObject({
      budget: { scope: "agent", tokens: 5000 },
    });
    expect(events.find((event) => event.type === "budget_warning")).toMatchObject({
      depth: 1,
      dimension: "tokens",
      budget: { limit: { tokens: 5000 }, spent: { tokens: 4000 } },
    });
    expect(events.find((event) => event.type === "budget_exhausted")).toMatchObject({
      depth: 1,
      dimension: "tokens",
      budget: { limit: { tokens: 5000 }, spent: { tokens: 6000 }, left: { tokens: 0 } },
    });
    const completed = events.find((event) => event.type === "subagent_completed")!;
    expect(completed).toMatchObject({
      status: "budget exhausted: its budget ran out: tokens 6,000 of 5,000",
      result: "step 1\nstep 2\nstep 3",
      budget: { scope: "agent", limit: { tokens: 5000 }, spent: { tokens: 6000 }, left: { tokens: 0 } },
    });
    const waited = events.find((event) => event.type === "tool_done" && event.name === "wait")!;
    expect(String(waited.output)).toContain(
      "budget exhausted: its budget ran out: tokens 6,000 of 5,000. Partial answer: step 1\\nstep 2\\nstep 3",
    );
    expect(events.at(-1)).toMatchObject({
      type: "turn_complete",
      reason: "completed",
      text: "Lead carries on.",
    });
  }, 90_000);

  it("a subtree budget stops the grandchild that crosses it, then its parent", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "spawn_agent",
                arguments: { message: "manage the dig", budget: { tokens: 5000, scope: "subtree" } },
              },
            ],
          },
        },
        { match: { system: LEAD, anyMessage: "budget exhausted" }, response: { text: "Lead carries on." } },
        { match: { system: LEAD, lastIsToolResult: true }, response: { toolCalls: [waitAll] } },
        {
          match: { system: CHILD, lastUser: "manage the dig", lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "spawn_agent", arguments: { message: "dig deep" } }],
            usage: { inputTokens: 900, outputTokens: 100 },
          },
        },
        {
          match: { system: CHILD, lastUser: "manage the dig" },
          response: { toolCalls: [waitAll], usage: { inputTokens: 0, outputTokens: 0 } },
        },
        { match: { system: CHILD, anyMessage: "dig deep" }, response: twelveThousandTokens },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "dig with a subtree budget"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(0);
    const events = lines(result.stdout);
    // 1,000 (the parent) + 2 × 2,000 (the grandchild) reach 5,000: the grandchild makes no third request.
    expect(mock.requests.filter((request) => request.messages[0]?.text === "dig deep")).toHaveLength(2);
    const completed = events.filter((event) => event.type === "subagent_completed");
    const grandchild = completed.find((event) => event.depth === 2)!;
    const child = completed.find((event) => event.depth === 1)!;
    expect(String(grandchild.status)).toMatch(
      /^budget exhausted: the budget of agent .* ran out: tokens 5,00\d of 5,000 \(with its subagents\)$/,
    );
    expect(child).toMatchObject({
      budget: { scope: "subtree", limit: { tokens: 5000 } },
    });
    expect(String(child.status)).toMatch(
      /^budget exhausted: its budget ran out: tokens 5,00\d of 5,000 \(with its subagents\)$/,
    );
    expect(events.at(-1)).toMatchObject({
      type: "turn_complete",
      reason: "completed",
      text: "Lead carries on.",
    });
  }, 90_000);

  it("--max-budget-usd ends the run with exit 1 and a clear message, the session saved", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD },
          response: {
            text: "working",
            toolCalls: [{ name: "think", arguments: { thought: "more" } }],
            // $3 per million input tokens: $0.30 a step.
            usage: { inputTokens: 100_000, outputTokens: 10 },
          },
        },
      ],
    });
    const result = await runNyz(
      ["exec", "--json", "--full-auto", "--max-budget-usd", "0.5", "spend it all"],
      {
        cwd: workspace,
        env: anthropicEnv(mock, home),
        timeoutMs: 60_000,
      },
    );
    expect(result.code).toBe(1);
    expect(mock.requests).toHaveLength(2);
    expect(result.stderr).toMatch(
      /Budget exhausted: \$0\.60\d* of \$0\.5000 .*--max-budget-usd.*Session \w{8} saved/,
    );
    const last = lines(result.stdout).at(-1)!;
    expect(last).toMatchObject({
      type: "turn_complete",
      reason: "budget",
      budget: { scope: "subtree", limit: { usd: 0.5 }, left: { usd: 0 } },
    });
    const [sessionFile] = await readdir(join(home, "data", "sessions"));
    const saved = JSON.parse(await readFile(join(home, "data", "sessions", sessionFile!), "utf8"));
    expect(saved.messages.length).toBeGreaterThan(0);
  }, 90_000);
});
