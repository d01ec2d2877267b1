import { appendFile, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelMessage, Usage } from "@nyzhi/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { type SubagentHarness, startSubagentHarness } from "../runtime/testing/subagent-harness.js";
import { journalSteps } from "./session-journal.js";
import { SessionStore } from "./session-store.js";
import type { SessionRecord } from "./session-types.js";

const STEP_USAGE: Usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };

function newRecord(id: string): SessionRecord {
  const now = "2026-01-01T00:00:00.000Z";
  return {
    meta: {
      id,
      title: "",
      createdAt: now,
      updatedAt: now,
      messageCount: 0,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      projectRoot: "/work/project",
    },
    messages: [],
  };
}

/** One tool step as the loop leaves it: the assistant's call and its result. */
function toolStep(thread: ModelMessage[], n: number): void {
  thread.push(
    {
      role: "assistant",
      content: [{ type: "tool-call", id: `call-${n}`, name: "write", input: { n } }],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: `call-${n}`, toolName: "write", output: `wrote file ${n}` },
      ],
    },
  );
}

let store: SessionStore;
beforeEach(async () => {
  store = new SessionStore(join(await mkdtemp(join(tmpdir(), "nyzhi-journal-")), "sessions"));
});

describe("SessionJournal", () => {
  it("keeps every recorded step of a killed run, ignores a torn last line and appends after it", async () => {
    const record = newRecord("killed1");
    const journal = await store.openJournal(record);
    const thread = record.messages;
    thread.push({ role: "user", content: "write three files" });
    for (const n of [1, 2]) {
      toolStep(thread, n);
      await journal.recordStep({ thread, usage: STEP_USAGE, costUsd: 0.01 });
    }
    // A kill in the middle of the third append.
    const path = store.journalPathOf("killed1");
    const whole = await readFile(path, "utf8");
    await appendFile(path, '{"seq":3,"at":"2026-01-01T00:00:01.000Z","meta":{"id":"killed1","tit');

    const loaded = await store.load("killed1");
    expect(loaded.messages).toEqual(thread);
    expect(loaded.meta).toMatchObject({
      title: "write three files",
      messageCount: 5,
      usage: { inputTokens: 200, outputTokens: 20 },
      costUsd: 0.02,
      projectRoot: "/work/project",
    });
    expect((await store.latest({ projectRoot: "/work/project" }))?.id).toBe("killed1");

    // The next run cuts the torn line off, so its own first line is whole.
    const resumed = await store.openJournal(loaded);
    expect(await readFile(path, "utf8")).toBe(whole);
    loaded.messages.push({ role: "user", content: "go on" });
    toolStep(loaded.messages, 3);
    await resumed.recordStep({ thread: loaded.messages, usage: STEP_USAGE, costUsd: 0.01 });
    expect((await store.load("killed1")).messages).toEqual(loaded.messages);
  });

  it("is taken in by the next save; lines the snapshot already holds are skipped", async () => {
    const record = newRecord("saved1");
    const journal = await store.openJournal(record);
    record.messages.push({ role: "user", content: "two steps" });
    toolStep(record.messages, 1);
    await journal.recordStep({ thread: record.messages, usage: STEP_USAGE, costUsd: 0 });
    toolStep(record.messages, 2);
    await journal.recordStep({ thread: record.messages, usage: STEP_USAGE, costUsd: 0 });
    record.messages.push({ role: "assistant", content: "done" });
    const lines = await readFile(store.journalPathOf("saved1"), "utf8");

    await journal.flush();
    await store.save(record);
    expect(await readdir(store.directory)).toEqual(expect.not.arrayContaining(["saved1.jsonl"]));
    // A kill after the snapshot was written but before the journal was removed.
    await writeFile(store.journalPathOf("saved1"), lines);
    const loaded = await store.load("saved1");
    expect(loaded.messages).toEqual(record.messages);
    expect(loaded.journalSeq).toBe(2);
  });

  it("writes a thread compacted mid-turn again from where it changed", async () => {
    const record = newRecord("compact1");
    const journal = await store.openJournal(record);
    const thread = record.messages;
    thread.push({ role: "user", content: "long task" });
    for (const n of [1, 2, 3]) {
      toolStep(thread, n);
      await journal.recordStep({ thread, usage: STEP_USAGE, costUsd: 0 });
    }
    // Compaction replaces the thread in place with a summary and the latest step.
    thread.splice(
      0,
      thread.length,
      { role: "user", content: "Summary: files 1-2 written." },
      ...thread.slice(-2),
    );
    toolStep(thread, 4);
    await journal.recordStep({ thread, usage: STEP_USAGE, costUsd: 0 });
    expect((await store.load("compact1")).messages).toEqual(thread);
  });

  it("appends only what a step added: a step's line is as long at step 500 as at step 10", async () => {
    const record = newRecord("long1");
    const journal = await store.openJournal(record);
    record.messages.push({ role: "user", content: "many steps" });
    const path = store.journalPathOf("long1");
    const added: number[] = [];
    for (let n = 1; n <= 500; n++) {
      const before = (await readFile(path, "utf8").catch(() => "")).length;
      toolStep(record.messages, n);
      await journal.recordStep({ thread: record.messages, usage: STEP_USAGE, costUsd: 0 });
      added.push((await readFile(path, "utf8")).length - before);
    }
    // Only the step number's digits (in the ids, inputs, outputs and `seq`) differ.
    expect(Math.abs(added[499]! - added[9]!)).toBeLessThan(20);
    expect((await store.load("long1")).messages).toHaveLength(1001);
  });

  it("is removed with its session, and taken in by a rename", async () => {
    const renamed = newRecord("rename1");
    const journal = await store.openJournal(renamed);
    renamed.messages.push({ role: "user", content: "first" });
    toolStep(renamed.messages, 1);
    await journal.recordStep({ thread: renamed.messages, usage: STEP_USAGE, costUsd: 0 });
    await store.rename("rename1", "Renamed");
    expect(await readdir(store.directory)).toEqual(["rename1.json"]);
    expect((await store.load("rename1")).messages).toEqual(renamed.messages);

    const deleted = newRecord("delete1");
    const other = await store.openJournal(deleted);
    deleted.messages.push({ role: "user", content: "gone" });
    toolStep(deleted.messages, 1);
    await other.recordStep({ thread: deleted.messages, usage: STEP_USAGE, costUsd: 0 });
    await store.delete("delete1");
    expect(await readdir(store.directory)).toEqual(["rename1.json"]);
  });
});

describe("journalSteps through a lead and a subagent", () => {
  let harness: SubagentHarness | undefined;

  it("journals each step of the lead and of its child before the next model request", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: "You are Nizzy", requestIndex: 1 },
          response: {
            toolCalls: [
              { name: "spawn_agent", arguments: { agent_type: "explorer", message: "read notes" } },
            ],
          },
        },
        {
          match: { system: { regex: "^(?!You are Nizzy)" }, lastIsToolResult: false },
          response: { toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }] },
        },
        { match: { system: { regex: "^(?!You are Nizzy)" } }, response: { text: "notes say hi" } },
        {
          match: { system: "You are Nizzy", anyMessage: "agent_nickname" },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: "You are Nizzy" }, response: { text: "The child read the notes." } },
      ],
    });
    try {
      const { runtime, mock } = harness;
      await writeFile(join(harness.workspace, "notes.txt"), "hi\n");
      const record = newRecord("agents1");
      record.messages = runtime.context.thread;
      const journal = await store.openJournal(record);
      const record_ = journalSteps(journal, { leadId: "lead", agents: () => runtime.manager?.snapshot() });
      const requestsAtStep: number[] = [];
      runtime.context.afterStep = async (step) => {
        if (step.agent.agentId === "lead") requestsAtStep.push(mock.requests.length);
        await record_(step);
      };
      await harness.turn("have a child read the notes");

      const loaded = await store.load("agents1");
      expect(loaded.messages).toEqual(JSON.parse(JSON.stringify(runtime.context.thread)));
      const agents = runtime.manager!.snapshot();
      const [childId] = Object.keys(agents);
      expect(loaded.agents?.[childId!]?.messages).toEqual(
        JSON.parse(JSON.stringify(agents[childId!]!.messages)),
      );
      expect(loaded.agents?.[childId!]?.messages).toHaveLength(4);
      // Lead step n was journaled while its next request was not yet sent (children's requests
      // interleave, so: never more lead requests than steps so far).
      const leadRequests = () => mock.requests.filter((request) => request.system?.includes("You are Nizzy"));
      expect(requestsAtStep).toHaveLength(3);
      expect(leadRequests()).toHaveLength(3);
      for (const [index, count] of requestsAtStep.entries()) {
        const leadSoFar = mock.requests
          .slice(0, count)
          .filter((request) => request.system?.includes("You are Nizzy"));
        expect(leadSoFar).toHaveLength(index + 1);
      }
    } finally {
      await harness.close();
      harness = undefined;
    }
  });
});
