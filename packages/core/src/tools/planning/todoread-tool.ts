import { z } from "zod";
import { todoStoreOf } from "../../planning/todo-service.js";
import { defineShippedTool } from "../seam/define-tool.js";

export const todoreadTool = defineShippedTool({
  name: "todoread",
  description: "Show your current todo list.",
  inputSchema: z.lazy(() => z.object({})),
  kind: "read",
  mutates: false,
  async execute(_input, context) {
    const store = todoStoreOf(context);
    return { output: store.format(), metadata: { todos: store.list(), progress: store.progress() } };
  },
});
