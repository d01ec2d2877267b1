import { z } from "zod";
import { todoStoreOf } from "../../planning/todo-service.js";
import { TODO_STATUSES } from "../../planning/todo-store.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";

const todoSchema = z.lazy(() =>
  z.object({
    id: z.string().min(1).describe("Stable id, e.g. '1' or 'write-tests'."),
    content: z.string().min(1).optional().describe("What to do. Required for a new todo."),
    status: z.enum(TODO_STATUSES).optional().describe("Default pending for a new todo."),
    blocked_by: z.array(z.string()).optional().describe("Ids that must be completed first."),
    blocks: z.array(z.string()).optional().describe("Ids waiting for this one."),
  }),
);

const inputSchema = z.lazy(() =>
  z.object({
    todos: z.array(todoSchema).min(1).describe("Todos to add or update, merged by id; others are kept."),
  }),
);

export const todowriteTool = defineShippedTool({
  name: "todowrite",
  description:
    "Create or update your todo list for multi-step work. Todos merge by id; set status to in_progress when you start one and completed when done. Returns the whole list.",
  inputSchema,
  kind: "memory",
  // Only the agent's own todo store changes (and its persistence file); no project files.
  mutates: false,
  async execute(input, context) {
    const store = todoStoreOf(context);
    try {
      await store.merge(input.todos);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    const progress = store.progress();
    return { output: store.format(), metadata: { todos: store.list(), progress } };
  },
});
