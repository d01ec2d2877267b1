import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../tools/testing/create-test-context.js";
import { ChangeTracker } from "./change-tracker.js";
import { formatUndoReport } from "./checkpoints.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
});
afterEach(async () => {
  await test.cleanup();
});

async function change(tracker: ChangeTracker, path: string, action: () => Promise<void>) {
  await tracker.beforeChange(path, "test");
  await action();
  await tracker.afterChange(path, "test");
}

describe("ChangeTracker", () => {
  it("undoes the last turn: modified, created and deleted files", async () => {
    const tracker = new ChangeTracker();
    const modified = join(test.cwd, "modified.txt");
    const created = join(test.cwd, "new/created.txt");
    const deleted = join(test.cwd, "deleted.txt");
    await writeFile(modified, "original\n");
    await writeFile(deleted, "keep me\n");

    tracker.checkpoint("turn-1");
    await change(tracker, modified, () => writeFile(modified, "changed\n"));
    await change(tracker, modified, () => writeFile(modified, "changed twice\n"));
    await change(tracker, created, async () => {
      await mkdir(join(test.cwd, "new"));
      await writeFile(created, "hello\n");
    });
    await change(tracker, deleted, () => rm(deleted));

    expect(tracker.changedFiles()).toEqual([deleted, modified, created].sort());
    const report = await tracker.undoLastTurn();
    expect(report).toEqual({
      turnId: "turn-1",
      restored: [
        { path: modified, action: "restored" },
        { path: created, action: "removed" },
        { path: deleted, action: "recreated" },
      ],
      failed: [],
    });
    expect(await readFile(modified, "utf8")).toBe("original\n");
    expect(existsSync(created)).toBe(false);
    expect(await readFile(deleted, "utf8")).toBe("keep me\n");
    expect(await tracker.undoLastTurn()).toBeUndefined();
  });

  it("undoes a move (recorded as two changes)", async () => {
    const tracker = new ChangeTracker();
    const from = join(test.cwd, "a.txt");
    const to = join(test.cwd, "b.txt");
    await writeFile(from, "content");
    tracker.checkpoint("turn-1");
    await tracker.beforeChange(from, "move_file");
    await tracker.beforeChange(to, "move_file");
    await rename(from, to);
    await tracker.afterChange(from, "move_file");
    await tracker.afterChange(to, "move_file");
    const report = await tracker.undoLastTurn();
    expect(report?.failed).toEqual([]);
    expect(await readFile(from, "utf8")).toBe("content");
    expect(existsSync(to)).toBe(false);
  });

  it("undoes turn by turn and skips turns without changes", async () => {
    const tracker = new ChangeTracker();
    const file = join(test.cwd, "f.txt");
    await writeFile(file, "v0");
    tracker.checkpoint("t1");
    await change(tracker, file, () => writeFile(file, "v1"));
    tracker.checkpoint("t2");
    await change(tracker, file, () => writeFile(file, "v2"));
    tracker.checkpoint("t3");
    expect(tracker.turns().map((turn) => turn.turnId)).toEqual(["t1", "t2"]);
    expect((await tracker.undoLastTurn())?.turnId).toBe("t2");
    expect(await readFile(file, "utf8")).toBe("v1");
    expect((await tracker.undoLastTurn())?.turnId).toBe("t1");
    expect(await readFile(file, "utf8")).toBe("v0");
    expect(await tracker.undoLastTurn()).toBeUndefined();
  });

  it("records changes before any checkpoint under 'initial' and ignores no-op writes", async () => {
    const tracker = new ChangeTracker();
    const file = join(test.cwd, "f.txt");
    await writeFile(file, "same");
    await change(tracker, file, () => writeFile(file, "same"));
    expect(tracker.changes()).toEqual([]);
    await change(tracker, file, () => writeFile(file, "different"));
    expect(tracker.changes()[0]).toMatchObject({ turnId: "initial", tool: "test", undoable: true });
  });

  it("does not snapshot large binary files and reports them as not undoable", async () => {
    const tracker = new ChangeTracker({ maxBinarySnapshotBytes: 16 });
    const binary = join(test.cwd, "blob.bin");
    const text = join(test.cwd, "text.txt");
    await writeFile(
      binary,
      Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]),
    );
    await writeFile(text, "a".repeat(100));
    tracker.checkpoint("t1");
    await change(tracker, binary, () => writeFile(binary, Buffer.from([0, 1])));
    await change(tracker, text, () => writeFile(text, "b"));
    expect(tracker.changes().map((entry) => entry.undoable)).toEqual([false, true]);
    const report = await tracker.undoLastTurn();
    expect(report?.failed).toEqual([{ path: binary, reason: "it is a binary file larger than 16 bytes" }]);
    expect(report?.restored).toEqual([{ path: text, action: "restored" }]);
    expect(await readFile(text, "utf8")).toBe("a".repeat(100));
    expect(formatUndoReport(report!, (path) => path.slice(test.cwd.length + 1))).toBe(
      "restored text.txt\ncould not undo blob.bin: it is a binary file larger than 16 bytes",
    );
  });

  it("undoAll restores the state before the first turn", async () => {
    const tracker = new ChangeTracker();
    const file = join(test.cwd, "f.txt");
    tracker.checkpoint("t1");
    await change(tracker, file, () => writeFile(file, "v1"));
    tracker.checkpoint("t2");
    await change(tracker, file, () => writeFile(file, "v2"));
    const reports = await tracker.undoAll();
    expect(reports.map((report) => report.turnId)).toEqual(["t2", "t1"]);
    expect(existsSync(file)).toBe(false);
  });
});
