import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolItem } from "../transcript/transcript-types.js";
import { REFRESH_MS } from "./refresh-clock.js";
import { summarizeToolInput } from "./summarize-tool-input.js";
import { ToolRow } from "./tool-row.js";

function row(overrides: Partial<ToolItem>): ToolItem {
  return {
    kind: "tool",
    id: "t1",
    done: false,
    callId: "c1",
    name: "bash",
    agent: { agentId: "lead", depth: 0 },
    status: "running",
    summary: "npm test",
    input: { command: "npm test" },
    output: "",
    startedAt: 10_000,
    expanded: false,
    ...overrides,
  };
}

const now = () => 13_200;
const manyLines = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join("\n");

describe("ToolRow", () => {
  afterEach(() => {
    // Unmounted rows leave the shared refresh clock, which stops (and restarts on fake timers).
    cleanup();
    vi.useRealTimers();
  });

  it("shows a running tool with a spinner, its elapsed time and the last lines of output", () => {
    const { lastFrame } = render(<ToolRow item={row({ output: manyLines })} now={now} />);
    expect(lastFrame()).toBe(
      [
        "⠋ bash npm test · 3.2s",
        "  │ … 7 earlier lines",
        "  │ line 8",
        "  │ line 9",
        "  │ line 10",
        "  │ line 11",
        "  │ line 12",
      ].join("\n"),
    );
  });

  it("advances the spinner on the refresh clock, at most 10 times a second", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const { frames } = render(<ToolRow item={row({})} now={now} />);
    await new Promise((resolve) => setImmediate(resolve));
    const before = frames.length;
    // A step of 10 ms at a time, letting React flush between steps: the rate is the spinner's own.
    for (let elapsed = 0; elapsed < 1000; elapsed += 10) {
      vi.advanceTimersByTime(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const renders = frames.length - before;
    expect(renders).toBeGreaterThanOrEqual(5);
    expect(renders).toBeLessThanOrEqual(1000 / REFRESH_MS);
    // The spinner moved (ten ticks bring its ten frames round to the first again).
    expect(new Set(frames.slice(before - 1)).size).toBeGreaterThan(1);
  });

  it("shows pending, awaiting approval, done, failed and denied rows", () => {
    const frame = (item: ToolItem) => render(<ToolRow item={item} now={now} />).lastFrame();
    expect(frame(row({ status: "pending", summary: "" }))).toBe("◌ bash");
    expect(frame(row({ status: "awaiting-approval", name: "edit", summary: "src/a.ts" }))).toBe(
      "? edit src/a.ts · awaiting approval",
    );
    expect(frame(row({ status: "done", done: true, durationMs: 850, output: manyLines }))).toBe(
      ["✓ bash npm test · 850ms", "  │ line 1", "  │ line 2", "  │ line 3", "  │ … +9 lines"].join("\n"),
    );
    expect(
      frame(row({ status: "failed", done: true, durationMs: 1200, output: "ok\nError: boom\nexit 1" })),
    ).toBe(["✗ bash npm test · failed · 1.2s", "  │ ok", "  │ Error: boom", "  │ exit 1"].join("\n"));
    expect(frame(row({ status: "denied", done: true, reason: "denied by the user: not now" }))).toBe(
      ["⊘ bash npm test · denied", "  │ denied by the user: not now"].join("\n"),
    );
  });

  it("expands to the whole output, tags a subagent's call and keeps an edit's row to one line", () => {
    const expanded = render(
      <ToolRow item={row({ status: "done", durationMs: 5, output: manyLines, expanded: true })} />,
    );
    expect(expanded.lastFrame()?.split("\n")).toHaveLength(13);
    const child = render(
      <ToolRow
        item={row({ status: "done", durationMs: 5, agent: { agentId: "c", depth: 1, nickname: "scout" } })}
      />,
    );
    expect(child.lastFrame()).toBe("✓ [scout] bash npm test · 5ms");
    const edit = render(
      <ToolRow
        item={row({
          name: "edit",
          status: "done",
          durationMs: 3,
          summary: "a.ts",
          output: "Edited a.ts\n@@ -1 +1 @@\n-a\n+b",
        })}
      />,
    );
    expect(edit.lastFrame()).toBe("✓ edit a.ts · 3ms\n  │ Edited a.ts");
  });

  it("summarizes each tool's arguments on one line", () => {
    expect(summarizeToolInput("read", { file_path: "src/index.ts", offset: 3 })).toBe("src/index.ts");
    expect(summarizeToolInput("bash", { command: "npm test\nnpm run lint" })).toBe("npm test …");
    expect(summarizeToolInput("edit", { file_path: "a.ts", old_string: "x", new_string: "y" })).toBe("a.ts");
    expect(summarizeToolInput("grep", { pattern: "TODO", path: "src" })).toBe("TODO in src");
    expect(summarizeToolInput("move_file", { source: "a", destination: "b" })).toBe("a → b");
    expect(
      summarizeToolInput("apply_patch", {
        patch: "*** Begin Patch\n*** Update File: a.py\n*** Add File: b.py\n",
      }),
    ).toBe("a.py, b.py");
    expect(summarizeToolInput("todowrite", { todos: [] })).toBe("");
    expect(summarizeToolInput("mcp__lab__echo", { text: "hi", count: 2 })).toBe("text=hi count=2");
  });
});
