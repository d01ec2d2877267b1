import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { todoreadTool } from "../tools/planning/todoread-tool.js";
import { todowriteTool } from "../tools/planning/todowrite-tool.js";
import { createTestContext, type TestContext } from "../tools/testing/create-test-context.js";
import { runTool } from "../tools/testing/run-tool.js";
import { TODO_STORE_SERVICE, TodoStore } from "./todo-store.js";

let test: TestContext;
let store: TodoStore;
beforeEach(async () => {
  test = await createTestContext();
  store = new TodoStore({ file: join(test.cwd, ".nyzhi/todos/session-1.json") });
  test.context.services[TODO_STORE_SERVICE] = store;
});
afterEach(async () => {
  await test.cleanup();
});

describe("todowrite / todoread", () => {
  it("merges by id, shows blockers, and persists without empty arrays", async () => {
    await runTool(
      todowriteTool,
      {
        todos: [
          { id: "1", content: "Write the parser", status: "in_progress", blocks: ["2"] },
          { id: "2", content: "Write the tests" },
          { id: "3", content: "Ship it", blocked_by: ["2"] },
        ],
      },
      test.context,
    );
    const result = await runTool(todowriteTool, { todos: [{ id: "1", status: "completed" }] }, test.context);
    expect(result.output).toBe(
      "[completed] 1: Write the parser\n[pending] 2: Write the tests\n[pending] 3: Ship it (blocked by: 2)",
    );
    expect(result.metadata?.progress).toEqual({ done: 1, active: 0, total: 3 });
    expect(JSON.parse(await readFile(store.file!, "utf8"))).toEqual([
      { id: "1", content: "Write the parser", status: "completed", blocks: ["2"] },
      { id: "2", content: "Write the tests", status: "pending" },
      { id: "3", content: "Ship it", status: "pending", blocked_by: ["2"] },
    ]);
    expect((await runTool(todoreadTool, {}, test.context)).output).toBe(result.output);
    const reloaded = await TodoStore.open(store.file!);
    expect(reloaded.list()).toEqual(store.list());
  });

  it("rejects a new todo without content and unknown statuses, changing nothing", async () => {
    expect(await runTool(todowriteTool, { todos: [{ id: "9" }] }, test.context)).toEqual({
      output: "todo '9' is new, so it needs content",
      isError: true,
    });
    const invalid = await runTool(
      todowriteTool,
      { todos: [{ id: "1", content: "x", status: "done" }] },
      test.context,
    );
    expect(invalid.isError).toBe(true);
    expect(invalid.output).toContain("todos.0.status");
    expect((await runTool(todoreadTool, {}, test.context)).output).toBe("No todos found");
  });

  it("says so when the runtime provides no todo store", async () => {
    delete test.context.services[TODO_STORE_SERVICE];
    expect(await runTool(todoreadTool, {}, test.context)).toEqual({
      output: "The todo list is not available in this session.",
      isError: true,
    });
  });
});

describe("TodoStore", () => {
  it("ignores a corrupt file and reports incomplete work", async () => {
    const file = join(test.cwd, "todos.json");
    await writeFile(file, "{not json");
    const opened = await TodoStore.open(file);
    expect(opened.list()).toEqual([]);
    await opened.merge([{ id: "a", content: "A", status: "in_progress" }]);
    expect(opened.hasIncomplete()).toBe(true);
    await opened.clear();
    expect(opened.hasIncomplete()).toBe(false);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual([]);
  });
});
