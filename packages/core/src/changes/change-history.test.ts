import { existsSync } from "node:fs";
import { appendFile, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../tools/testing/create-test-context.js";
import { resumeChangeHistory } from "./change-history.js";
import { ChangeTracker } from "./change-tracker.js";

let test: TestContext;
let historyDir: string;
beforeEach(async () => {
  test = await createTestContext();
  historyDir = join(test.cwd, ".nyzhi-home", "sessions", "s1.changes");
});
afterEach(async () => {
  await test.cleanup();
});

async function edit(tracker: ChangeTracker, path: string, content: string | null) {
  await tracker.beforeChange(path, "write");
  if (content === null) await rm(path);
  else await writeFile(path, content);
  await tracker.afterChange(path, "write");
}

/** A tracker as a new run of the session gets it: the history read back from disk. */
async function nextRun(): Promise<ChangeTracker> {
  const tracker = new ChangeTracker();
  await resumeChangeHistory(tracker, historyDir);
  return tracker;
}

describe("a session's change history", () => {
  it("lets the next run list, diff and undo the changes of an earlier run, turn by turn", async () => {
    const notes = join(test.cwd, "notes.txt");
    const created = join(test.cwd, "created.txt");
    await writeFile(notes, "one\n");
    const first = await nextRun();
    first.checkpoint("turn-1");
    await edit(first, notes, "two\n");
    first.checkpoint("turn-2");
    await edit(first, notes, "three\n");
    await edit(first, created, "new\n");
    await first.flush();

    const second = await nextRun();
    expect(second.changedFiles()).toEqual([created, notes]);
    expect(second.turns().map((turn) => turn.turnId)).toEqual(["turn-1", "turn-2"]);
    const last = second.changes().at(-2)!;
    expect(Buffer.from(last.before!).toString()).toBe("two\n");
    expect(Buffer.from(last.after!).toString()).toBe("three\n");

    const report = await second.undoLastTurn();
    expect(report?.restored.map((entry) => entry.action)).toEqual(["restored", "removed"]);
    expect(await readFile(notes, "utf8")).toBe("two\n");
    expect(existsSync(created)).toBe(false);
    await second.flush();

    // The undo is history too: a third run has only turn-1 left to undo.
    const third = await nextRun();
    expect(third.turns().map((turn) => turn.turnId)).toEqual(["turn-1"]);
    await third.undoLastTurn();
    expect(await readFile(notes, "utf8")).toBe("one\n");
    expect(await third.undoLastTurn()).toBeUndefined();
  });

  it("keeps each content once, and skips a damaged line with the rest still usable", async () => {
    const notes = join(test.cwd, "notes.txt");
    await writeFile(notes, "same\n");
    const first = await nextRun();
    first.checkpoint("turn-1");
    await edit(first, notes, "other\n");
    await edit(first, notes, "same\n");
    await first.flush();
    expect(await readdir(join(historyDir, "blobs"))).toHaveLength(2);

    await appendFile(join(historyDir, "changes.jsonl"), '{"kind":"change","turnId":\n');
    const second = await nextRun();
    expect(second.changes()).toHaveLength(2);
  });

  it("says a change cannot be undone when its saved content is gone", async () => {
    const notes = join(test.cwd, "notes.txt");
    await writeFile(notes, "one\n");
    const first = await nextRun();
    first.checkpoint("turn-1");
    await edit(first, notes, "two\n");
    await first.flush();
    await rm(join(historyDir, "blobs"), { recursive: true });

    const second = await nextRun();
    const report = await second.undoLastTurn();
    expect(report?.failed).toEqual([
      { path: notes, reason: expect.stringMatching(/saved copy .* is missing/) },
    ]);
    expect(await readFile(notes, "utf8")).toBe("two\n");
  });
});
