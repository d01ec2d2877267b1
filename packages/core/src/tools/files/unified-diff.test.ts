import { describe, expect, it } from "vitest";
import { diffStats, unifiedDiff } from "./unified-diff.js";

const lines = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

describe("unifiedDiff", () => {
  it("gives hunks with three lines of context and no file headers", () => {
    const before = `${lines(12).join("\n")}\n`;
    const after = before.replace("line 2\n", "line two\n").replace("line 11\n", "");
    expect(unifiedDiff(before, after)).toBe(
      [
        "@@ -1,5 +1,5 @@",
        " line 1",
        "-line 2",
        "+line two",
        " line 3",
        " line 4",
        " line 5",
        "@@ -8,5 +8,4 @@",
        " line 8",
        " line 9",
        " line 10",
        "-line 11",
        " line 12",
      ].join("\n"),
    );
  });

  it("merges changes closer than twice the context into one hunk", () => {
    const before = `${lines(10).join("\n")}\n`;
    const after = before.replace("line 2\n", "two\n").replace("line 8\n", "eight\n");
    expect(unifiedDiff(before, after).split("\n")[0]).toBe("@@ -1,10 +1,10 @@");
  });

  it("writes an empty side as starting at line 0", () => {
    expect(unifiedDiff("", "a\nb\n")).toBe("@@ -0,0 +1,2 @@\n+a\n+b");
    expect(unifiedDiff("a\n", "")).toBe("@@ -1,1 +0,0 @@\n-a");
  });

  it("is empty for equal texts and for a difference in the final newline only", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n")).toBe("");
    expect(unifiedDiff("a\nb", "a\nb\n")).toBe("");
    expect(unifiedDiff("a\nb", "a\nc")).toBe("@@ -1,2 +1,2 @@\n a\n-b\n+c");
  });

  it("caps its lines and says how many more there are", () => {
    const diff = unifiedDiff("", `${lines(60).join("\n")}\n`, { maxLines: 10 });
    expect(diff.split("\n")).toHaveLength(11);
    expect(diff.split("\n").at(-1)).toBe("... (51 more diff lines)");
  });
});

describe("diffStats", () => {
  it("counts added and removed lines", () => {
    expect(diffStats("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual({ added: 2, removed: 1 });
    expect(diffStats("same\n", "same\n")).toEqual({ added: 0, removed: 0 });
  });

  it("finds two distant changes in a long file, quickly", () => {
    const before = `${lines(4000).join("\n")}\n`;
    const after = before.replace("line 10\n", "ten\n").replace("line 3990\n", "three thousand\n");
    const started = performance.now();
    expect(diffStats(before, after)).toEqual({ added: 2, removed: 2 });
    expect(
      unifiedDiff(before, after)
        .split("\n")
        .filter((line) => line.startsWith("@@")),
    ).toEqual(["@@ -7,7 +7,7 @@", "@@ -3987,7 +3987,7 @@"]);
    // Generous: the machine running tests is shared.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("shows texts too different to diff cheaply as one replaced block", () => {
    const before = `${lines(3000, "old").join("\n")}\n`;
    const after = `${lines(3000, "new").join("\n")}\n`;
    const started = performance.now();
    expect(diffStats(before, after)).toEqual({ added: 3000, removed: 3000 });
    expect(unifiedDiff(before, after, { maxLines: 2 })).toBe(
      "@@ -1,3000 +1,3000 @@\n-old 1\n... (5999 more diff lines)",
    );
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
