import { readFile } from "node:fs/promises";
import { getLogger, WITHOUT_ZOD_JIT, writeFileAtomic } from "@nyzhi/config";
import { z } from "zod";

export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** Key of the TodoStore in `ToolContext.services`. */
export const TODO_STORE_SERVICE = "todos";

export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
  /** Ids of todos that must finish before this one can start. */
  blocked_by: string[];
  /** Ids of todos waiting for this one. */
  blocks: string[];
}

/** An update from `todowrite`: fields left out keep their current value. */
export interface TodoUpdate {
  id: string;
  content?: string | undefined;
  status?: TodoStatus | undefined;
  blocked_by?: string[] | undefined;
  blocks?: string[] | undefined;
}

const storedSchema = z.lazy(() =>
  z.array(
    z.object({
      id: z.string(),
      content: z.string(),
      status: z.enum(TODO_STATUSES),
      blocked_by: z.array(z.string()).optional(),
      blocks: z.array(z.string()).optional(),
    }),
  ),
);

export interface TodoStoreOptions {
  /** Persist the list here (pretty JSON, written atomically after every change). */
  file?: string;
}

/**
 * One agent's todo list. In memory, optionally persisted to a JSON file. The runtime puts one per
 * agent in `services.todos`; todowrite/todoread use it.
 */
export class TodoStore {
  readonly file: string | undefined;
  #items: TodoItem[] = [];
  #saving: Promise<void> = Promise.resolve();

  constructor(options: TodoStoreOptions = {}) {
    this.file = options.file;
  }

  /** A store backed by `file`, loaded from it when it exists (a corrupt file is logged and ignored). */
  static async open(file: string): Promise<TodoStore> {
    const store = new TodoStore({ file });
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text !== undefined) {
      const parsed = storedSchema.safeParse(safeJson(text), WITHOUT_ZOD_JIT);
      if (parsed.success) {
        store.#items = parsed.data.map((item) => ({
          ...item,
          blocked_by: item.blocked_by ?? [],
          blocks: item.blocks ?? [],
        }));
      } else {
        getLogger().warn({ file }, "ignoring an unreadable todo file");
      }
    }
    return store;
  }

  list(): TodoItem[] {
    return this.#items.map((item) => ({
      ...item,
      blocked_by: [...item.blocked_by],
      blocks: [...item.blocks],
    }));
  }

  /**
   * Merges updates by id: known ids are updated field by field, new ids are appended (they need
   * content; status defaults to pending). Validates everything before changing anything.
   */
  async merge(updates: TodoUpdate[]): Promise<TodoItem[]> {
    const next = this.list();
    for (const update of updates) {
      const existing = next.find((item) => item.id === update.id);
      if (existing) {
        if (update.content !== undefined) existing.content = update.content;
        if (update.status !== undefined) existing.status = update.status;
        if (update.blocked_by !== undefined) existing.blocked_by = [...update.blocked_by];
        if (update.blocks !== undefined) existing.blocks = [...update.blocks];
      } else {
        if (update.content === undefined || update.content.trim() === "") {
          throw new Error(`todo '${update.id}' is new, so it needs content`);
        }
        next.push({
          id: update.id,
          content: update.content,
          status: update.status ?? "pending",
          blocked_by: [...(update.blocked_by ?? [])],
          blocks: [...(update.blocks ?? [])],
        });
      }
    }
    this.#items = next;
    await this.#save();
    return this.list();
  }

  async clear(): Promise<void> {
    this.#items = [];
    await this.#save();
  }

  /** Ids of unfinished todos that `id` waits for (from its blocked_by and others' blocks). */
  blockersOf(id: string): string[] {
    const item = this.#items.find((candidate) => candidate.id === id);
    const declared = new Set(item?.blocked_by ?? []);
    for (const other of this.#items) if (other.blocks.includes(id)) declared.add(other.id);
    return [...declared].filter((blocker) => {
      const found = this.#items.find((candidate) => candidate.id === blocker);
      return found !== undefined && !isDone(found.status);
    });
  }

  hasIncomplete(): boolean {
    return this.#items.some((item) => item.status === "pending" || item.status === "in_progress");
  }

  /** done = completed or cancelled. */
  progress(): { done: number; active: number; total: number } {
    return {
      done: this.#items.filter((item) => isDone(item.status)).length,
      active: this.#items.filter((item) => item.status === "in_progress").length,
      total: this.#items.length,
    };
  }

  /** One line per todo: `[status] id: content (blocked by: a, b)`. */
  format(): string {
    if (this.#items.length === 0) return "No todos found";
    return this.#items
      .map((item) => {
        const blockers = isDone(item.status) ? [] : this.blockersOf(item.id);
        const suffix = blockers.length > 0 ? ` (blocked by: ${blockers.join(", ")})` : "";
        return `[${item.status}] ${item.id}: ${item.content}${suffix}`;
      })
      .join("\n");
  }

  #save(): Promise<void> {
    const file = this.file;
    if (file === undefined) return Promise.resolve();
    const snapshot = this.#items.map((item) => ({
      id: item.id,
      content: item.content,
      status: item.status,
      ...(item.blocked_by.length > 0 ? { blocked_by: item.blocked_by } : {}),
      ...(item.blocks.length > 0 ? { blocks: item.blocks } : {}),
    }));
    // Writes are chained so a slow earlier write never lands after a later one.
    this.#saving = this.#saving
      .catch(() => undefined)
      .then(() => writeFileAtomic(file, `${JSON.stringify(snapshot, null, 2)}\n`, { fsync: false }));
    return this.#saving;
  }
}

function isDone(status: TodoStatus): boolean {
  return status === "completed" || status === "cancelled";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
