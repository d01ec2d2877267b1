import { join } from "node:path";

/** Where compaction keeps its files inside a project. */
export interface ContextDirs {
  /** `<root>/.nyzhi/context/tool-results`: large tool outputs written out of the thread. */
  toolResults: string;
  /** `<root>/.nyzhi/context/history`: the full thread saved before each full compaction (JSONL). */
  history: string;
}

export function contextDirs(projectRoot: string): ContextDirs {
  const base = join(projectRoot, ".nyzhi", "context");
  return { toolResults: join(base, "tool-results"), history: join(base, "history") };
}
