import { mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import type { LanguageModel, ModelMessage } from "@nyzhi/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockLanguageModel } from "../agent-loop/testing/mock-language-model.js";
import { buildLongThread, buildReadStep } from "./__fixtures__/build-thread.js";
import { type CompactIfNeededResult, compactIfNeeded, describeCompactionStep } from "./compact-if-needed.js";
import { compactThread } from "./compact-thread.js";
import { contextDirs } from "./context-dirs.js";
import { estimateTokens } from "./estimate-tokens.js";
import { summaryMessage } from "./summary-prompt.js";
import { validateThread } from "./validate-thread.js";

const SYSTEM = "You are nyzhi, a coding agent.";
const SUMMARISER = "You summarise a coding session";
const USAGE = { inputTokens: 1234, outputTokens: 56 };

/** A summariser that answers `summary` and reports `USAGE`. */
const summariser = (summary: string): Scenario => ({
  rules: [{ match: { system: SUMMARISER }, response: { text: summary, usage: USAGE } }],
});
/** About 1000 tokens: longer than one 3200-character read it would replace. */
const LONG_SUMMARY = `## 1. Primary request\n${"Read the files and report on each. ".repeat(117)}`;
const SHORT_SUMMARY = "## 1. Primary request\nRead every file.\n## 8. Next step\nRead the next file.";

let mock: MockLlm | undefined;
let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-compact-if-")));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(root, { recursive: true, force: true });
});

async function modelFor(scenario: Scenario): Promise<LanguageModel> {
  mock = await startMockLlm({ scenario });
  return mockLanguageModel(mock);
}

const summaryRequests = () => mock!.requests.filter((request) => request.system?.startsWith(SUMMARISER));
const request = (text: string): ModelMessage => ({ role: "user", content: text });

/**
 * The agent loop as the runtime drives it: before each of `requests` model requests, compact the
 * thread in place; the model answers every request but the last with another `read`.
 */
async function simulateReads(
  model: LanguageModel,
  prompt: ModelMessage,
  requests: number,
  onRequest: (thread: readonly ModelMessage[], result: CompactIfNeededResult) => void,
): Promise<void> {
  const thread: ModelMessage[] = [prompt];
  for (let step = 0; step < requests; step++) {
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 3000,
      threshold: 0.5,
      projectRoot: root,
      sessionId: "run",
    });
    thread.splice(0, thread.length, ...result.thread);
    onRequest(thread, result);
    if (step < requests - 1) thread.push(...buildReadStep(step));
  }
}

describe("compactIfNeeded does not summarise when it cannot shrink the thread", () => {
  it("reviewer's run: six reads in a 3000-token window at 0.5 ask for two summaries, not six, and never grow the thread", async () => {
    const model = await modelFor(summariser(LONG_SUMMARY));
    const prompt = request("Read every file and report on each.");
    const results: CompactIfNeededResult[] = [];
    await simulateReads(model, prompt, 7, (thread, result) => {
      results.push(result);
      expect(thread).toContain(prompt);
      expect(validateThread(thread)).toEqual({ ok: true, problems: [] });
      expect(result.after).toBeLessThanOrEqual(result.before);
    });
    // Before request 3 only the prompt lies before the cut; before 4 the summary is longer than
    // the read it would replace (discarded); before 5 too little is new; before 6 it pays.
    expect(summaryRequests()).toHaveLength(2);
    expect(results.map((result) => result.steps.map((step) => step.kind))).toEqual([
      [],
      [],
      [],
      ["full-discarded"],
      [],
      ["full"],
      [],
    ]);
    expect(results[6]!.after).toBeGreaterThan(1500); // still over the target: the run goes on
  });

  it("skips the summary when only the previous summary and the latest request lie before the cut", async () => {
    const model = await modelFor(summariser(SHORT_SUMMARY));
    const thread = [
      summaryMessage(LONG_SUMMARY, "/h/run-1.jsonl"),
      request("Read every file."),
      ...buildReadStep(0),
      ...buildReadStep(1),
    ];
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 3000,
      projectRoot: root,
    });
    expect(result).toEqual({
      thread,
      steps: [],
      before: result.before,
      after: result.before,
      usage: undefined,
    });
    expect(result.after).toBeGreaterThan(2550);
    expect(mock!.requests).toHaveLength(0);
  });

  it("skips the summary when the new material is smaller than the previous summary", async () => {
    const model = await modelFor(summariser(SHORT_SUMMARY));
    const thread = [
      summaryMessage(LONG_SUMMARY, "/h/run-1.jsonl"),
      request("Read every file."),
      ...[0, 1, 2, 3, 4].flatMap((step) => buildReadStep(step, 300)),
    ];
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 1000,
      projectRoot: root,
    });
    expect(result.steps).toEqual([]);
    expect(mock!.requests).toHaveLength(0);
    // With more new material than the previous summary, it runs.
    const longer = [
      ...thread,
      ...Array.from({ length: 10 }, (_, index) => buildReadStep(5 + index, 600)).flat(),
    ];
    const again = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread: longer,
      contextWindow: 1000,
      projectRoot: root,
    });
    expect(again.steps.map((step) => step.kind)).toEqual(["full"]);
    expect(again.thread[1]).toEqual(request("Read every file."));
  });

  it("discards a summary that is not smaller, removes its history file, and does not retry it at the next step", async () => {
    const model = await modelFor(summariser(LONG_SUMMARY));
    const thread = [
      request("Read every file."),
      ...buildReadStep(0),
      ...buildReadStep(1, 2000),
      ...buildReadStep(2),
    ];
    const options = { model, system: SYSTEM, contextWindow: 3000, threshold: 0.5, projectRoot: root };
    const first = await compactIfNeeded({ ...options, thread });
    expect(first.steps).toEqual([
      {
        kind: "full-discarded",
        stats: expect.objectContaining({ before: first.before }),
        usage: expect.objectContaining(USAGE),
      },
    ]);
    const step = first.steps[0]!;
    expect(step.kind === "full-discarded" && step.stats.after).toBeGreaterThanOrEqual(first.before);
    expect(describeCompactionStep(step)).toMatch(
      /^Full compaction discarded: the summary would not shrink the conversation \(\d+ → \d+ tokens\); kept it as it was$/,
    );
    expect(first.thread).toEqual(thread);
    expect(first.after).toBe(first.before);
    expect(first.usage).toMatchObject(USAGE);
    expect(await readdir(contextDirs(root).history)).toEqual([]);

    const next = [...first.thread, ...buildReadStep(3)];
    const second = await compactIfNeeded({ ...options, thread: next });
    expect(second.steps).toEqual([]);
    expect(second.usage).toBeUndefined();
    expect(summaryRequests()).toHaveLength(1);
  });

  it("does not ask a failing summariser again at the next step", async () => {
    const model = await modelFor(summariser(""));
    const thread = [
      request("Read every file."),
      ...buildReadStep(0),
      ...buildReadStep(1),
      ...buildReadStep(2),
    ];
    const options = { model, system: SYSTEM, contextWindow: 3000, threshold: 0.5, projectRoot: root };
    await expect(compactIfNeeded({ ...options, thread })).rejects.toThrow(/empty summary/);
    const next = [...thread, ...buildReadStep(3)];
    const second = await compactIfNeeded({ ...options, thread: next });
    expect(second.steps.filter((step) => step.kind.startsWith("full"))).toEqual([]);
    expect(summaryRequests()).toHaveLength(1);
  });

  it("returns a thread that is one over-long request as it is, without a summary or an error", async () => {
    const model = await modelFor(summariser(SHORT_SUMMARY));
    const thread = [request("x".repeat(20_000))];
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 3000,
      projectRoot: root,
    });
    expect(result.steps).toEqual([]);
    expect(result.after).toBeGreaterThan(2550);
    expect(mock!.requests).toHaveLength(0);
  });
});

describe("the summariser's usage", () => {
  it("comes back from compactThread and compactIfNeeded, for the caller to add to the turn", async () => {
    const model = await modelFor(summariser(SHORT_SUMMARY));
    const direct = await compactThread({
      model,
      system: SYSTEM,
      thread: buildLongThread(10),
      historyDir: contextDirs(root).history,
    });
    expect(direct.usage).toMatchObject(USAGE);

    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread: buildLongThread(10),
      contextWindow: 3000,
      projectRoot: root,
    });
    expect(result.steps.map((step) => step.kind)).toEqual(["microcompact", "full"]);
    expect(result.usage).toMatchObject(USAGE);
    expect(result.steps[1]).toMatchObject({ kind: "full", usage: USAGE });
  });

  it("is undefined when no summary was asked for", async () => {
    const model = await modelFor(summariser(SHORT_SUMMARY));
    const thread = buildLongThread(2);
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 200_000,
      projectRoot: root,
    });
    expect(result.usage).toBeUndefined();
    expect(estimateTokens(SYSTEM, thread)).toBe(result.before);
  });
});

describe("the threshold", () => {
  it("counts the tokens every request carries besides the thread (the tool definitions)", async () => {
    const model = await modelFor(summariser(SHORT_SUMMARY));
    const thread = buildLongThread(2);
    const own = estimateTokens(SYSTEM, thread);
    // Under the threshold on its own; over it with the tool definitions added.
    const contextWindow = Math.ceil((own + 500) / 0.85);
    const without = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow,
      projectRoot: root,
    });
    expect(without.steps).toEqual([]);
    const withTools = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow,
      projectRoot: root,
      fixedTokens: 1000,
    });
    expect(withTools.before).toBe(own + 1000);
    expect(withTools.steps.length).toBeGreaterThan(0);
  });
});
