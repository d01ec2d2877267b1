import { readFileSync, writeFileSync } from "node:fs";
import type { AgentEvent, AgentEventType, AgentTag } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import { createJsonEventWriter, type JsonRecord } from "./json-event-writer.js";
import { fatalErrorLine, turnCompleteLine } from "./json-run-lines.js";

const DOC = new URL("../../../../docs/json-events.md", import.meta.url);
const AGENT_EVENTS = new URL("../../../core/src/events/agent-events.ts", import.meta.url);

const INDEX_BEGIN =
  "<!-- BEGIN GENERATED: the line types the writers produce, by json-events-doc.test.ts -->";
const INDEX_END = "<!-- END GENERATED -->";

/** The doc's generated index: every line type the writers produce, with its own fields. */
function renderIndex(fieldsByType: ReadonlyMap<string, ReadonlySet<string>>): string {
  const rows = [...fieldsByType]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([type, fields]) => {
      const own = [...fields].filter((field) => !COMMON.includes(field)).sort();
      return `| [\`${type}\`](#${type}) | ${own.map((field) => `\`${field}\``).join(", ") || "—"} |`;
    });
  return ["| line type | its own fields |", "| --- | --- |", ...rows].join("\n");
}

/** Fields every line may carry, documented once in "Fields on every line". */
const COMMON = ["type", "agent_id", "depth", "nickname", "role"];

type Payload<Type extends AgentEventType> = Omit<Extract<AgentEvent, { type: Type }>, "type" | "agent">;
const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 };

/** At least one sample of every agent event, with every optional field set. */
const BUDGET = {
  scope: "agent" as const,
  limit: { tokens: 5000 },
  spent: { tokens: 6000, usd: 0.01, minutes: 0.2 },
  left: { tokens: 0 },
};

const TOTAL = { usage, costUsd: 0.01, embeddingTokens: 0 };
const TURN_COMPLETE: Payload<"turn-complete"> = {
  sessionId: "s",
  providerId: "p",
  modelId: "m",
  reason: "completed",
  text: "t",
  steps: 1,
  sessionTotal: TOTAL,
  sinceOpen: TOTAL,
  budget: { ...BUDGET, scope: "subtree" },
};

const SAMPLES: { [Type in AgentEventType]: Payload<Type>[] } = {
  "turn-start": [{ turnId: "t", input: "hi" }],
  "step-start": [{ step: 1 }],
  "text-delta": [{ delta: "a" }],
  "reasoning-delta": [{ delta: "r" }],
  "tool-call-start": [{ callId: "c", name: "bash" }],
  "tool-call-delta": [{ callId: "c", delta: "{}" }],
  "tool-start": [{ callId: "c", name: "bash", input: {} }],
  "tool-output": [{ callId: "c", name: "bash", text: "o" }],
  "tool-end": [
    {
      callId: "c",
      name: "bash",
      output: "o",
      isError: true,
      durationMs: 1,
      refused: "denied",
      metadata: { a: 1 },
    },
  ],
  "approval-requested": [{ id: "approval-1", callId: "c", tool: "bash", input: {}, preview: "p" }],
  "approval-resolved": [
    { callId: "c", tool: "bash", approved: true, reason: "ok" },
    { callId: "c", tool: "bash", approved: false, reason: "no" },
  ],
  retry: [
    {
      attempt: 1,
      maxAttempts: 3,
      waitMs: 5,
      reason: "r",
      discard: { text: "t", reasoning: false, toolCalls: [] },
    },
  ],
  usage: [
    { step: 1, usage, costUsd: 0, agentTotal: { usage, costUsd: 0 }, subtreeTotals: [], sessionTotal: TOTAL },
  ],
  "step-end": [{ step: 1, finishReason: "stop", toolCalls: 0 }],
  notice: [{ message: "n" }, { message: "m", source: "mcp", level: "warning", server: "s", kind: "failed" }],
  "session-opened": [{ sessionId: "s", providerId: "p", modelId: "m", sessionTotal: TOTAL }],
  "hook-result": [{ event: "after_turn", status: "ok", summary: "s" }],
  "queued-delivered": [{ texts: ["also this"] }],
  question: [{ id: "question-1", question: "Which?", choices: ["a", "b"] }],
  "index-progress": [
    {
      phase: "skipped",
      filesDone: 0,
      filesTotal: 9,
      chunks: 0,
      embedded: 0,
      embeddingTokens: 0,
      costUsd: 0,
      message: "m",
      sessionTotal: TOTAL,
    },
  ],
  error: [{ message: "e", code: "x", fatal: true, error: new Error("e") }],
  "team-state": [
    {
      changes: ["status"],
      teams: [
        {
          name: "alpha",
          leadUnread: 1,
          board: { open: 2, claimed: 1, done: 0 },
          members: [
            { name: "ruby", agentId: "a", role: "reviewer", state: "working", unread: 0 },
            { name: "ann", agentId: undefined, role: undefined, state: "idle", unread: 2 },
          ],
        },
      ],
    },
  ],
  "autopilot-phase": [
    { phase: "planning", status: "started", idea: "i" },
    { phase: "qa", status: "stopped", reason: "aborted", idea: "i" },
  ],
  "subagent-spawned": [
    {
      childId: "k",
      nickname: "Ada",
      role: "explorer",
      depth: 1,
      unknownRole: true,
      model: "m",
      budget: { tokens: 5000, scope: "agent" },
      worktree: { branch: "nyzhi/ada-1", path: "/w" },
      callId: "call-1",
    },
  ],
  "subagent-queued": [
    { role: "worker", limit: 8, waiting: 1 },
    { role: "worker", limit: 4, waiting: 1, reason: "parent", childId: "q", nickname: "Bo" },
  ],
  "subagent-status-changed": [
    {
      childId: "k",
      nickname: "Ada",
      status: "running",
      child: { agentId: "k", depth: 1, nickname: "Ada", role: "explorer" },
      state: { lifecycle: "running" },
    },
  ],
  "subagent-completed": [
    {
      childId: "k",
      nickname: "Ada",
      role: "explorer",
      status: "completed",
      child: { agentId: "k", depth: 1, nickname: "Ada", role: "explorer" },
      state: { lifecycle: "completed", detail: "r" },
      result: "r",
      usage,
      costUsd: 0,
      budget: BUDGET,
      worktree: { branch: "nyzhi/ada-1", path: "/w", base: "abc", diffStat: "1 file changed" },
    },
  ],
  "budget-warning": [{ dimension: "tokens", budget: BUDGET }],
  "budget-exhausted": [{ dimension: "tokens", budget: BUDGET }],
  "turn-end": [{ turnId: "t", reason: "completed", steps: 1, usage, costUsd: 0, text: "a" }],
  "turn-complete": [TURN_COMPLETE],
};

const AGENTS: AgentTag[] = [
  { agentId: "lead", depth: 0 },
  { agentId: "k", depth: 1, nickname: "Ada", role: "explorer" },
];

/** Every line the writers can produce for the samples, for the lead and for a subagent. */
function producedLines(): JsonRecord[] {
  const lines: JsonRecord[] = [];
  for (const agent of AGENTS) {
    for (const [type, payloads] of Object.entries(SAMPLES)) {
      for (const payload of payloads as object[]) {
        const event = { type, agent, ...payload } as AgentEvent;
        lines.push(...createJsonEventWriter()(event));
        // After what comes before it in a run: a call's start, a subagent's spawn.
        const writer = createJsonEventWriter();
        writer({ type: "tool-start", agent, callId: "c", name: "bash", input: {} });
        writer({ type: "subagent-spawned", agent, ...SAMPLES["subagent-spawned"][0]! });
        lines.push(...writer(event));
      }
    }
  }
  lines.push(
    fatalErrorLine(new Error("e")),
    turnCompleteLine(
      { type: "turn-complete", agent: AGENTS[0]!, ...TURN_COMPLETE },
      {
        durationMs: 1,
        worktrees: [
          {
            agentId: "k",
            nickname: "Ada",
            branch: "nyzhi/ada-1",
            path: "/w",
            base: "abc",
            diffStat: "1 file changed",
          },
        ],
      },
    ),
  );
  return lines;
}

interface DocSection {
  fields: Set<string>;
  examples: string[];
}

/** The doc's sections: "Fields on every line" as `common`, and one per `### \`type\`` heading. */
function parseDoc(text: string): { common: Set<string>; sections: Map<string, DocSection> } {
  const common = new Set<string>();
  const sections = new Map<string, DocSection>();
  let current: DocSection | "common" | undefined;
  let inExample = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) {
      inExample = !inExample && line.trim() === "```json";
      continue;
    }
    if (inExample) {
      if (current && current !== "common" && line.trim()) current.examples.push(line);
      continue;
    }
    if (line.startsWith("## ")) current = line === "## Fields on every line" ? "common" : undefined;
    const heading = /^### `([a-z_]+)`$/.exec(line);
    if (heading) {
      current = { fields: new Set(), examples: [] };
      sections.set(heading[1]!, current);
    }
    const row = /^\|\s*`([a-z_]+)`\s*\|/.exec(line);
    if (row && current) (current === "common" ? common : current.fields).add(row[1]!);
  }
  return { common, sections };
}

/** The keys of `interface AgentEvents` in core's source: every event type there is. */
function agentEventTypes(): string[] {
  const source = readFileSync(AGENT_EVENTS, "utf8");
  const start = source.indexOf("export interface AgentEvents {");
  const body = source.slice(start, source.indexOf("\n}\n", start));
  return [...body.matchAll(/^ {2}"?([a-z][a-z-]*)"?: /gm)].map((match) => match[1]!).sort();
}

describe("docs/json-events.md", () => {
  const { common, sections } = parseDoc(readFileSync(DOC, "utf8"));
  const lines = producedLines();
  const fieldsByType = new Map<string, Set<string>>();
  for (const line of lines) {
    const type = String(line.type);
    const fields = fieldsByType.get(type) ?? new Set<string>();
    for (const key of Object.keys(line)) fields.add(key);
    fieldsByType.set(type, fields);
  }

  it("is checked against a sample of every agent event core declares", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(agentEventTypes());
  });

  it("documents every line type the writers produce, and no other", () => {
    expect([...sections.keys()].sort()).toEqual([...fieldsByType.keys()].sort());
  });

  it("lists exactly the fields of each line type", () => {
    expect([...common].sort()).toEqual([...COMMON].sort());
    for (const line of lines)
      expect(Object.keys(line)).toEqual(expect.arrayContaining(["type", "agent_id", "depth"]));
    for (const [type, produced] of fieldsByType) {
      const documented = sections.get(type)!.fields;
      const own = (fields: Set<string>) => [...fields].filter((field) => !common.has(field)).sort();
      expect({ type, fields: own(documented) }).toEqual({ type, fields: own(produced) });
      // A common field a section explains again (a subagent line's `agent_id`) must be one it has.
      for (const field of documented)
        if (common.has(field))
          expect({ type, field, produced: produced.has(field) }).toEqual({ type, field, produced: true });
    }
  });

  it("holds the generated index of line types and their fields (regenerated here when stale)", () => {
    const text = readFileSync(DOC, "utf8");
    const start = text.indexOf(INDEX_BEGIN);
    const end = text.indexOf(INDEX_END);
    expect(start, `docs/json-events.md must hold the markers ${INDEX_BEGIN} … ${INDEX_END}`).toBeGreaterThan(
      -1,
    );
    const current = `${text.slice(0, start + INDEX_BEGIN.length)}\n\n${renderIndex(fieldsByType)}\n${text.slice(end)}`;
    if (current !== text) writeFileSync(DOC, current);
    expect(
      current === text,
      "docs/json-events.md's index was stale; it has been regenerated: commit it",
    ).toBe(true);
  });

  it("gives each line type an example, a line of exactly that type with only its fields, keys sorted", () => {
    for (const [type, section] of sections) {
      expect({ type, examples: section.examples.length }).toEqual({ type, examples: 1 });
      const example = JSON.parse(section.examples[0]!) as JsonRecord;
      expect(example.type).toBe(type);
      const keys = Object.keys(example);
      expect(keys).toEqual([...keys].sort());
      const produced = fieldsByType.get(type)!;
      for (const key of keys)
        expect({ type, key, known: produced.has(key) }).toEqual({ type, key, known: true });
    }
  });
});
