import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendEntry, InputHistory, projectHistoryPath } from "./input-history.js";

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), "nyzhi-history-")), "history", "project.jsonl");
}

describe("InputHistory", () => {
  it("persists entries with newlines, drops consecutive duplicates and survives a reload", async () => {
    const path = tempFile();
    const history = await InputHistory.load(path);
    expect(history.entries).toEqual([]);
    await history.push("first");
    await history.push("two\nlines");
    await history.push("two\nlines");
    await history.push("   ");
    await history.push("first");
    expect(history.entries).toEqual(["first", "two\nlines", "first"]);
    expect(readFileSync(path, "utf8")).toBe('"first"\n"two\\nlines"\n"first"\n');
    expect((await InputHistory.load(path)).entries).toEqual(["first", "two\nlines", "first"]);
  });

  it("keeps the newest entries up to the limit, and both windows' entries", async () => {
    const path = tempFile();
    const left = await InputHistory.load(path, { maxEntries: 3 });
    const right = await InputHistory.load(path, { maxEntries: 3 });
    await left.push("a");
    await right.push("b");
    await left.push("c");
    await left.push("d");
    expect(left.entries).toEqual(["b", "c", "d"]);
    expect(
      appendEntry(
        Array.from({ length: 1000 }, (_, i) => `e${i}`),
        "new",
      ),
    ).toHaveLength(1000);
  });

  it("skips unreadable lines and keeps one file per project", async () => {
    const path = tempFile();
    await (await InputHistory.load(path)).push("ok");
    writeFileSync(path, `${readFileSync(path, "utf8")}{torn\n42\n`);
    expect((await InputHistory.load(path)).entries).toEqual(["ok"]);
    const one = projectHistoryPath("/data", "/home/u/app");
    expect(one).toMatch(/^\/data\/history\/app-[0-9a-f]{12}\.jsonl$/);
    expect(projectHistoryPath("/data", "/home/v/app")).not.toBe(one);
  });
});
