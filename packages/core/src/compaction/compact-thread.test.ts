import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import type { LanguageModel, ModelMessage } from "@nyzhi/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockLanguageModel } from "../agent-loop/testing/mock-language-model.js";
import { buildLongThread, buildReadStep, buildSingleTurnThread } from "./__fixtures__/build-thread.js";
import { compactIfNeeded, describeCompactionStep } from "./compact-if-needed.js";
import { compactThread } from "./compact-thread.js";
import { CompactionError } from "./compaction-error.js";
import { contextDirs } from "./context-dirs.js";
import { estimateTokens, shouldCompact } from "./estimate-tokens.js";
import { summaryMessage } from "./summary-prompt.js";
import { validateThread } from "./validate-thread.js";

const SUMMARY = "## 1. Primary request\nExplain every file.\n## 8. Next step\nExplain src/file-8.ts.";
const SYSTEM = "You are nyzhi, a coding agent.";

const summaryScenario: Scenario = {
  rules: [
    { name: "summary", match: { system: "You summarise a coding session" }, response: { text: SUMMARY } },
  ],
};

let mock: MockLlm | undefined;
let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-compact-")));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(root, { recursive: true, force: true });
});

async function modelFor(scenario: Scenario, providerId: "anthropic" | "openai"): Promise<LanguageModel> {
  mock = await startMockLlm({ scenario });
  return mockLanguageModel(mock, { providerId });
}

describe.each(["anthropic", "openai"] as const)("compactThread through the mock LLM (%s)", (providerId) => {
  it("summarises the older part, keeps a valid recent part and saves the history", async () => {
    const model = await modelFor(summaryScenario, providerId);
    const thread = buildLongThread(10);
    expect(thread).toHaveLength(40);
    const contextWindow = 6000;
    expect(shouldCompact({ estimate: estimateTokens(SYSTEM, thread), contextWindow })).toBe(true);

    const historyDir = contextDirs(root).history;
    const result = await compactThread({ model, system: SYSTEM, thread, historyDir, sessionId: "s1" });

    const historyPath = join(historyDir, "s1-1.jsonl");
    expect(result.historyPath).toBe(historyPath);
    expect(result.summary).toBe(SUMMARY);
    // Keep 6 of 40 aims at index 34; the turn starting at 32 is the nearest user message.
    expect(result.thread).toEqual([
      { role: "user", content: `[Conversation summary]\n${SUMMARY}\n(full history: ${historyPath})` },
      ...thread.slice(32),
    ]);
    expect(validateThread(result.thread)).toEqual({ ok: true, problems: [] });
    expect(result.stats).toEqual({
      before: estimateTokens(SYSTEM, thread),
      after: estimateTokens(SYSTEM, result.thread),
      messagesKept: 8,
      messagesSummarised: 32,
    });
    expect(result.stats.after).toBeLessThan(result.stats.before / 3);
    expect(shouldCompact({ estimate: result.stats.after, contextWindow })).toBe(false);

    const request = mock!.requests[0]!;
    expect(mock!.requests).toHaveLength(1);
    expect(request.system).toContain("You summarise a coding session");
    expect(request.toolsOffered).toEqual([]);
    const userMessages = request.messages.filter((message) => message.role === "user");
    expect(userMessages).toHaveLength(1);
    const prompt = userMessages[0]!.text;
    for (const section of ["Primary request", "decisions", "Files and code", "Errors and fixes"]) {
      expect(prompt).toContain(section);
    }
    for (const section of ["Problem solving", "Current state", "Pending tasks", "Next step"]) {
      expect(prompt).toContain(section);
    }
    expect(prompt).toContain("## User\nTask 0: explain src/file-0.ts");
    expect(prompt).toContain('[tool:read] {"file_path":"src/file-7.ts"}');
    expect(prompt).toContain("[result:read] export const value7 = 7;");
    expect(prompt).toContain("Answer 7: the file exports value7.");
    expect(prompt).not.toContain("Task 8");
    expect(prompt).toContain("Stats: 32 messages");

    const saved = (await readFile(historyPath, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as ModelMessage);
    expect(saved).toEqual(thread);
  });
});

describe("compactThread", () => {
  it("merges the previous summary and numbers history files per session", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const historyDir = contextDirs(root).history;
    const first = await compactThread({ model, system: SYSTEM, thread: buildLongThread(10), historyDir });
    const continued = [...first.thread, ...buildLongThread(6).map(renameCalls)];
    const second = await compactThread({
      model,
      system: SYSTEM,
      thread: continued,
      historyDir,
      instructions: "Keep the list of files.",
    });
    expect(second.historyPath).toBe(join(historyDir, "session-2.jsonl"));
    const prompt = mock!.requests[1]!.messages[0]!.text;
    expect(prompt).toContain(`<previous-summary>\n${SUMMARY}\n</previous-summary>`);
    expect(prompt).not.toContain("full history:");
    expect(prompt).toContain("Additional instructions:\nKeep the list of files.");
    expect(validateThread(second.thread).ok).toBe(true);
  });

  it("cuts a single long turn at a step boundary, never between a call and its result, keeping its request", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const thread = buildSingleTurnThread(15);
    const result = await compactThread({ model, system: SYSTEM, thread, historyDir: root, keepRecent: 6 });
    // The turn's request is carried past the cut: [summary, request, ...last 7 messages].
    expect(result.thread[1]).toBe(thread[0]);
    expect(result.thread.slice(2)).toEqual(thread.slice(thread.length - 7));
    expect(result.thread[2]?.role).toBe("assistant");
    expect(result.stats.messagesKept).toBe(8);
    expect(result.stats.messagesSummarised).toBe(thread.length - 8);
    expect(validateThread(result.thread)).toEqual({ ok: true, problems: [] });
  });

  it("keeps a long piped request verbatim when its own turn's steps are summarised, and older requests whole", async () => {
    const model = await modelFor(summaryScenario, "openai");
    const spec = (tag: string) =>
      Array.from({ length: 250 }, (_, line) => `${tag} ${line + 1}: handle case ${line + 1}.`).join("\n");
    const earlier: ModelMessage = { role: "user", content: spec("Old requirement") };
    const latest: ModelMessage = { role: "user", content: spec("Requirement") };
    expect(latest.content.length).toBeGreaterThan(6000);
    const thread: ModelMessage[] = [
      earlier,
      { role: "assistant", content: "Noted." },
      latest,
      ...[0, 1, 2, 3, 4, 5].flatMap((step) => buildReadStep(step)),
    ];
    const result = await compactThread({ model, system: SYSTEM, thread, historyDir: root });
    // The next request: the summary, then the user's actual request, then the last steps.
    expect(result.thread[0]?.content).toContain("[Conversation summary]");
    expect(result.thread[1]).toBe(latest);
    expect(result.thread.slice(2)).toEqual(thread.slice(-4));
    expect(validateThread(result.thread)).toEqual({ ok: true, problems: [] });
    const prompt = mock!.requests[0]!.messages.find((message) => message.role === "user")!.text;
    expect(prompt).toContain(earlier.content as string);
    expect(prompt).toContain(
      "## User (latest request; it stays verbatim after your summary, shown shortened here)",
    );
    expect(prompt).not.toContain("Requirement 250:");
    expect(prompt).toContain("Stats: 10 messages");
  });

  it("refuses when only the previous summary lies before the cut", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const thread: ModelMessage[] = [
      summaryMessage(SUMMARY, "/h/session-1.jsonl"),
      { role: "user", content: "Next task" },
      ...buildReadStep(0),
      ...buildReadStep(1),
    ];
    await expect(compactThread({ model, system: SYSTEM, thread, historyDir: root })).rejects.toMatchObject({
      code: "compaction_too_short",
    });
    expect(mock!.requests).toHaveLength(0);
  });

  it("throws compaction_failed and writes no history when the model fails", async () => {
    const model = await modelFor(
      { rules: [{ response: { fault: { type: "status", status: 400, message: "bad request" } } }] },
      "anthropic",
    );
    const historyDir = contextDirs(root).history;
    const failure = compactThread({ model, system: SYSTEM, thread: buildLongThread(10), historyDir });
    await expect(failure).rejects.toBeInstanceOf(CompactionError);
    await expect(failure).rejects.toMatchObject({ code: "compaction_failed" });
    await expect(readdir(historyDir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("throws compaction_aborted when the signal fires during the summary request", async () => {
    const model = await modelFor({ rules: [{ response: { fault: { type: "hang" } } }] }, "anthropic");
    const controller = new AbortController();
    const historyDir = contextDirs(root).history;
    const pending = compactThread({
      model,
      system: SYSTEM,
      thread: buildLongThread(10),
      historyDir,
      signal: controller.signal,
    });
    await mock!.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "compaction_aborted" });
    await expect(readdir(historyDir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a thread too short to cut", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const thread: ModelMessage[] = [{ role: "user", content: "hi" }];
    await expect(compactThread({ model, system: SYSTEM, thread, historyDir: root })).rejects.toMatchObject({
      code: "compaction_too_short",
    });
    expect(mock!.requests).toHaveLength(0);
  });
});

describe("compactIfNeeded", () => {
  it("does nothing under the threshold", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const thread = buildLongThread(2);
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 200_000,
      projectRoot: root,
    });
    expect(result).toEqual({ thread, steps: [], before: result.before, after: result.before });
    expect(mock!.requests).toHaveLength(0);
  });

  it("stops after the cheap steps when they are enough", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const thread = buildLongThread(10);
    const before = estimateTokens(SYSTEM, thread);
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: Math.ceil(before / 0.85) - 100,
      projectRoot: root,
    });
    expect(result.steps.map((step) => step.kind)).toEqual(["microcompact"]);
    expect(mock!.requests).toHaveLength(0);
    expect(result.thread).toHaveLength(40);
    expect(validateThread(result.thread).ok).toBe(true);
    expect(result.after).toBeLessThan(before);
    expect(describeCompactionStep(result.steps[0]!)).toMatch(
      /^compaction: moved 2 old tool outputs to files \(saved ~\d+ tokens\)$/,
    );
  });

  it("runs the full summary when the cheap steps are not enough", async () => {
    const model = await modelFor(summaryScenario, "anthropic");
    const thread = buildLongThread(10);
    const result = await compactIfNeeded({
      model,
      system: SYSTEM,
      thread,
      contextWindow: 3000,
      projectRoot: root,
      sessionId: "abc",
    });
    expect(result.steps.map((step) => step.kind)).toEqual(["microcompact", "full"]);
    const full = result.steps[1]!;
    expect(full.kind === "full" && full.historyPath).toBe(join(contextDirs(root).history, "abc-1.jsonl"));
    expect(describeCompactionStep(full)).toMatch(
      /^Full compaction complete: \d+ → \d+ tokens \(8 messages kept\)$/,
    );
    expect(result.thread[0]?.content).toContain("[Conversation summary]");
    expect(validateThread(result.thread).ok).toBe(true);
    expect(result.after).toBeLessThan(2550);
  });
});

/** The same conversation again with fresh call ids, so ids stay unique in one thread. */
function renameCalls(message: ModelMessage): ModelMessage {
  if (message.role === "tool") {
    return {
      ...message,
      content: message.content.map((part) => ({ ...part, toolCallId: `again_${part.toolCallId}` })),
    };
  }
  if (message.role !== "assistant" || typeof message.content === "string") return message;
  return {
    ...message,
    content: message.content.map((part) =>
      part.type === "tool-call" ? { ...part, id: `again_${part.id}` } : part,
    ),
  };
}
