import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TodoStore } from "../planning/todo-store.js";
import { MAP_DOCUMENTS, mapCodebase } from "./codebase-map.js";
import { formatHandoff, newestHandoff, parseHandoffTodos, writeHandoff } from "./handoff.js";
import { saveLearnedSkill } from "./learn-skill.js";

const temp = () => mkdtemp(join(tmpdir(), "nyzhi-workflows-"));

describe("handoff notes", () => {
  it("write project, branch, model, todos, last messages and open questions; the todos read back", async () => {
    const root = await temp();
    const path = await writeHandoff({
      projectRoot: root,
      providerId: "anthropic",
      modelId: "claude-x",
      todos: [
        { id: "a", content: "Write the parser", status: "in_progress", blocked_by: [], blocks: [] },
        { id: "b", content: "Ship it", status: "completed", blocked_by: [], blocks: [] },
      ],
      messages: [
        { role: "user", content: "start the parser" },
        { role: "assistant", content: [{ type: "text", text: "Started. Should it accept tabs? Yes." }] },
      ],
      changedFiles: [join(root, "src", "parser.ts")],
      contextPercent: 12.4,
      now: new Date("2026-11-29T10:11:12Z"),
    });
    expect(path).toBe(join(root, ".nyzhi", "handoff-20261129-101112.md"));
    const text = await readFile(path, "utf8");
    expect(text).toContain(`- Project: ${root}`);
    expect(text).toContain("- Branch: ");
    expect(text).toContain("- Model: anthropic/claude-x");
    expect(text).toContain("- Context used: 12%");
    expect(text).toContain("- user: start the parser");
    expect(text).toContain("## Open questions\n- Should it accept tabs?\n- still to do: Write the parser");
    expect(text).toContain("## Changed files\n- src/parser.ts");
    expect(parseHandoffTodos(text)).toEqual([
      { id: "a", content: "Write the parser", status: "in_progress" },
      { id: "b", content: "Ship it", status: "completed" },
    ]);
    const store = new TodoStore();
    await store.merge(parseHandoffTodos(text));
    expect(store.list().map((todo) => todo.content)).toEqual(["Write the parser", "Ship it"]);
  });

  it("the newest note wins; other files and a missing folder are no note", async () => {
    const root = await temp();
    expect(await newestHandoff(root)).toBeUndefined();
    await mkdir(join(root, ".nyzhi"));
    await writeFile(join(root, ".nyzhi", "handoff-20260101-000000.md"), "old");
    await writeFile(join(root, ".nyzhi", "handoff-20261231-000000.md"), "new");
    await writeFile(join(root, ".nyzhi", "handoff-notes.md"), "not one");
    expect((await newestHandoff(root))?.text).toBe("new");
    expect(parseHandoffTodos("no todos here")).toEqual([]);
    expect(
      formatHandoff({
        projectRoot: root,
        providerId: "p",
        modelId: "m",
        todos: [],
        messages: [],
        changedFiles: [],
        branch: "main",
      }),
    ).toContain("## Todos\n- none");
  });
});

describe("the codebase map", () => {
  it("starts the four subagents before waiting for any, and writes each one's answer (or why not)", async () => {
    const root = await temp();
    const spawned: string[] = [];
    let waited = false;
    const results = await mapCodebase(
      {
        async spawn(request) {
          expect(waited).toBe(false);
          expect(request.roleName).toBe("explorer");
          spawned.push(request.message);
          return { agentId: `agent-${spawned.length}`, nickname: `scout${spawned.length}` };
        },
        async finish(agentId) {
          waited = true;
          return agentId === "agent-4"
            ? { state: "errored", message: "rate limited" }
            : { state: "completed", result: `findings of ${agentId}` };
        },
      },
      root,
    );
    expect(spawned).toHaveLength(4);
    expect(results.map((result) => [result.file, result.ok])).toEqual([
      ["STACK.md", true],
      ["ARCHITECTURE.md", true],
      ["CONVENTIONS.md", true],
      ["CONCERNS.md", false],
    ]);
    expect((await readdir(join(root, ".nyzhi", "map"))).sort()).toEqual(
      MAP_DOCUMENTS.map((document) => document.file).sort(),
    );
    expect(await readFile(join(root, ".nyzhi", "map", "STACK.md"), "utf8")).toBe(
      "# Stack\n\nfindings of agent-1\n",
    );
    expect(await readFile(join(root, ".nyzhi", "map", "CONCERNS.md"), "utf8")).toContain(
      "errored: rate limited",
    );
  });
});

describe("learned skills", () => {
  it("saves the session's requests and tools as a skill, and refuses a bad name or an existing skill", async () => {
    const root = await temp();
    const messages = [
      { role: "user" as const, content: "write release notes from the git log" },
      {
        role: "assistant" as const,
        content: [{ type: "tool-call" as const, id: "1", name: "bash", input: { command: "git log" } }],
      },
    ];
    const path = await saveLearnedSkill(root, "release-notes", messages);
    const text = await readFile(path, "utf8");
    expect(text).toMatch(
      /^---\ndescription: "How this project did: write release notes from the git log"\n---/,
    );
    expect(text).toContain("- bash");
    await expect(saveLearnedSkill(root, "release-notes", messages)).rejects.toThrow(/exists already/);
    await expect(saveLearnedSkill(root, "Bad Name", messages)).rejects.toThrow(/not a skill name/);
  });
});
