import { describe, expect, it } from "vitest";
import { MEMORY_INDEX_HEADER } from "../memory/memory-store.js";
import { buildBriefing } from "./build-briefing.js";
import type { SharedContext } from "./shared-context.js";

const empty: SharedContext = { recentChanges: [], activeTodos: [], conversationSummary: [] };

describe("buildBriefing", () => {
  it("renders nothing for an empty context", () => {
    expect(buildBriefing(empty)).toBe("");
    expect(buildBriefing({ ...empty, projectRoot: "/p", projectMemory: "  \n" })).toBe("");
  });

  it("renders every section in order with its header", () => {
    const briefing = buildBriefing({
      recentChanges: ["/p/src/a.ts", "/p/src/b.ts"],
      activeTodos: [{ id: "1", content: "Write the parser", status: "in_progress" }],
      conversationSummary: ["[user] add a parser", "[assistant] on it"],
      projectRoot: "/p",
      projectMemory: "\n# Project Memory\n- uses pnpm\n",
    });
    expect(briefing).toBe(
      [
        "## Recent File Changes",
        "1. /p/src/a.ts",
        "2. /p/src/b.ts",
        "",
        "## Active Todos",
        "- [1] Write the parser",
        "",
        "## Recent Conversation",
        "- [user] add a parser",
        "- [assistant] on it",
        "",
        "## Project Memory",
        "- uses pnpm",
      ].join("\n"),
    );
  });

  it("shows the memory index under one `## Project Memory` heading, without the index's own title", () => {
    const briefing = buildBriefing({
      ...empty,
      projectMemory: `${MEMORY_INDEX_HEADER}- [build](build.md): pnpm build\n`,
    });
    expect(briefing).toBe(
      [
        "## Project Memory",
        "Auto-managed memory index.",
        "",
        "### Topics",
        "- [build](build.md): pnpm build",
      ].join("\n"),
    );
  });

  it("lists 20 changes and counts the rest", () => {
    const changes = Array.from({ length: 30 }, (_, index) => `/p/file-${index + 1}.ts`);
    const lines = buildBriefing({ ...empty, recentChanges: changes }).split("\n");
    expect(lines[0]).toBe("## Recent File Changes");
    expect(lines[20]).toBe("20. /p/file-20.ts");
    expect(lines[21]).toBe("... and 10 more");
    expect(lines).toHaveLength(22);
  });

  it("shows at most 5 messages and 20 memory lines", () => {
    const briefing = buildBriefing({
      ...empty,
      conversationSummary: ["m1", "m2", "m3", "m4", "m5", "m6", "m7"],
      projectMemory: Array.from({ length: 30 }, (_, index) => `memory ${index + 1}`).join("\n"),
    });
    expect(briefing).toContain("- m5");
    expect(briefing).not.toContain("- m6");
    expect(briefing).toContain("memory 20");
    expect(briefing).not.toContain("memory 21");
  });

  it("cuts the whole briefing to 60 lines", () => {
    const todos = Array.from({ length: 80 }, (_, index) => ({
      id: String(index + 1),
      content: `todo\nwith a line break ${index + 1}`,
      status: "pending",
    }));
    const lines = buildBriefing({ ...empty, recentChanges: ["/p/a.ts"], activeTodos: todos }).split("\n");
    expect(lines).toHaveLength(60);
    expect(lines[3]).toBe("## Active Todos");
    expect(lines[4]).toBe("- [1] todo with a line break 1");
    expect(lines[59]).toBe("- [56] todo with a line break 56");
  });
});
