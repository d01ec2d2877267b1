import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { computeUnifiedDiff } from "./compute-diff.js";
import { diffFromToolEnd } from "./diff-from-tool.js";
import { changedSpan, DiffView } from "./diff-view.js";
import { parseUnifiedDiff } from "./parse-unified-diff.js";

const EDIT_DIFF = [
  "@@ -9,4 +9,4 @@",
  " const a = 1;",
  "-const b = 2;",
  "+const b = 3;",
  " const c = 4;",
  " return a;",
].join("\n");

describe("changedSpan", () => {
  it("marks the part of a changed line that differs from the line it replaces", () => {
    const { rows } = parseUnifiedDiff("@@ -1,2 +1,2 @@\n-colour: blue\n+colour: green\n context");
    expect(changedSpan(rows, 1)).toEqual({ start: 8, end: 12 });
    expect(changedSpan(rows, 2)).toEqual({ start: 8, end: 13 });
    expect(changedSpan(rows, 3)).toBeUndefined();
  });

  it("marks nothing in a line without a counterpart, or one sharing nothing with it", () => {
    const { rows } = parseUnifiedDiff("@@ -1,1 +1,2 @@\n-abc\n+xyz\n+added");
    expect(changedSpan(rows, 1)).toBeUndefined();
    expect(changedSpan(rows, 3)).toBeUndefined();
  });
});

describe("DiffView", () => {
  it("shows the file, counts, hunk header and numbered +/- and context lines", () => {
    const { lastFrame } = render(<DiffView diff={EDIT_DIFF} path="src/a.ts" />);
    expect(lastFrame()).toBe(
      [
        "src/a.ts +1 -1",
        "     @@ -9,4 +9,4 @@",
        " 9   const a = 1;",
        "10 - const b = 2;",
        "10 + const b = 3;",
        "11   const c = 4;",
        "12   return a;",
      ].join("\n"),
    );
  });

  it("collapses beyond maxLines and shows everything when expanded", () => {
    const big = computeUnifiedDiff(
      "",
      `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
    );
    const collapsed = render(<DiffView diff={big} maxLines={5} expandHint="ctrl+o to expand" />);
    const lines = collapsed.lastFrame()!.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe("     … +26 lines (ctrl+o to expand)");
    const expanded = render(<DiffView diff={big} maxLines={5} expanded />);
    expect(expanded.lastFrame()!.split("\n")).toHaveLength(31);
  });

  it("parses numbers across hunks and keeps a truncation note", () => {
    const parsed = parseUnifiedDiff(
      "@@ -1,1 +1,2 @@\n a\n+b\n@@ -10,1 +11,1 @@\n-x\n+y\n... (3 more diff lines)",
    );
    expect(parsed.rows.map((row) => [row.kind, row.oldLine, row.newLine])).toEqual([
      ["hunk", undefined, undefined],
      ["context", 1, 1],
      ["added", undefined, 2],
      ["hunk", undefined, undefined],
      ["removed", 10, undefined],
      ["added", undefined, 11],
      ["note", undefined, undefined],
    ]);
    expect([parsed.added, parsed.removed]).toEqual([2, 1]);
  });

  it("takes a write's diff from its output, and marks a new file", () => {
    const change = diffFromToolEnd({
      tool: "write",
      input: { file_path: "b.ts", content: "x\n" },
      output: "Wrote 2 bytes to b.ts (new file)\n@@ -0,0 +1,1 @@\n+x",
      metadata: { path: "/w/b.ts", bytes: 2, created: true },
    });
    expect(change).toEqual({ path: "/w/b.ts", diff: "@@ -0,0 +1,1 @@\n+x", created: true });
    expect(diffFromToolEnd({ tool: "read", input: {}, output: "@@ -1 +1 @@" })).toBeUndefined();
    expect(diffFromToolEnd({ tool: "edit", input: { file_path: "a" }, output: "Edited a" })).toBeUndefined();
    const { lastFrame } = render(<DiffView diff={change!.diff} path="b.ts" created />);
    expect(lastFrame()).toBe("b.ts (new file) +1 -0\n    @@ -0,0 +1,1 @@\n1 + x");
  });
});
