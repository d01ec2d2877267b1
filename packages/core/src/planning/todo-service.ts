import { ToolError } from "../tools/seam/define-tool.js";
import type { ToolContext } from "../tools/seam/tool-types.js";
import { TODO_STORE_SERVICE, TodoStore } from "./todo-store.js";

/** The agent's TodoStore, or a tool error when the runtime did not provide one. */
export function todoStoreOf(context: ToolContext): TodoStore {
  const store = context.services[TODO_STORE_SERVICE];
  if (store instanceof TodoStore) return store;
  throw new ToolError("The todo list is not available in this session.");
}
