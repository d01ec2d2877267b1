import { join, resolve, sep } from "node:path";
import { ensureNyzhiGitignore, errorMessage, getLogger } from "@nyzhi/config";

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

/** Project roots whose `.nyzhi/.gitignore` was checked by this process. */
const ignoring = new Map<string, Promise<void>>();

/**
 * Keeps `.nyzhi/context/` out of commits: the first time in a process that nyzhi writes under a
 * project's `.nyzhi/context/` (offloaded tool output, saved histories, the MCP tool index), that
 * project's `.nyzhi/.gitignore` gets a `context/` line if it lacks one (created if missing; an
 * atomic write under a lock). A `dir` elsewhere is left alone. A failure is logged, never thrown:
 * the write it precedes matters more.
 */
export function ensureContextIgnored(dir: string): Promise<void> {
  const root = projectRootOfContextDir(dir);
  if (root === undefined) return Promise.resolve();
  let pending = ignoring.get(root);
  if (!pending) {
    pending = ensureNyzhiGitignore(root, ["context/"]).then(
      () => undefined,
      (error: unknown) => {
        getLogger().warn({ root, error: errorMessage(error) }, "could not add context/ to .nyzhi/.gitignore");
      },
    );
    ignoring.set(root, pending);
  }
  return pending;
}

/** `/p/.nyzhi/context/tool-results` → `/p`; undefined for a directory outside a `.nyzhi/context`. */
function projectRootOfContextDir(dir: string): string | undefined {
  const withSeparator = `${resolve(dir)}${sep}`;
  const at = withSeparator.lastIndexOf(`${sep}.nyzhi${sep}context${sep}`);
  return at < 0 ? undefined : withSeparator.slice(0, at) || sep;
}
