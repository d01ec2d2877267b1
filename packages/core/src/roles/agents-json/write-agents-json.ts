import { lstat, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { NyzhiError, withFileLock, writeFileAtomic } from "@nyzhi/config";
import type { AgentDefinition } from "./agent-definition.js";
import { readAgentsJson } from "./read-agents-json.js";

/** A write to agents.json was refused; the message says why and what to do. */
export class AgentsJsonError extends NyzhiError {
  constructor(message: string) {
    super("agents_json", message);
  }
}

/**
 * Adds or replaces one entry of the agents.json at `path`, keeping every other entry (and any
 * fields this version does not know) as they are. The read-merge-write runs under the file's
 * lock (`<agents.json>.lock`), so concurrent writers in this or other processes never lose each
 * other's entries, and the write is atomic (temp file + rename). A file that is not valid JSON is
 * never overwritten: the write is refused with the reason. Returns whether an entry of that name
 * was replaced.
 */
export async function writeAgentEntry(
  path: string,
  name: string,
  definition: AgentDefinition,
): Promise<{ replaced: boolean }> {
  return updateAgentsJson(path, (entries) => {
    const replaced = Object.hasOwn(entries, name);
    return { next: { ...entries, [name]: definition }, result: { replaced } };
  });
}

/**
 * Removes one entry, keeping the others, under the same lock as `writeAgentEntry`; returns false
 * (and writes nothing) when it is absent.
 */
export async function removeAgentEntry(path: string, name: string): Promise<boolean> {
  return updateAgentsJson(path, (entries) => {
    if (!Object.hasOwn(entries, name)) return { result: false };
    const next = { ...entries };
    delete next[name];
    return { next, result: true };
  });
}

/** What an update decided: the entries to write (none: leave the file as it is) and its answer. */
interface AgentsJsonUpdate<T> {
  next?: Record<string, unknown>;
  result: T;
}

/** One read-merge-write of agents.json, holding the file's lock from the read to the rename. */
async function updateAgentsJson<T>(
  path: string,
  update: (entries: Record<string, unknown>) => AgentsJsonUpdate<T>,
): Promise<T> {
  return withFileLock(await lockPathOf(path), async () => {
    const { next, result } = update(await readForUpdate(path));
    if (next) await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
    return result;
  });
}

/**
 * `<file>.lock` beside the file writeFileAtomic replaces: a symlinked agents.json (dotfiles) is
 * locked at its target, so every link to it shares one lock. A plain file is locked by its own
 * path, whether it exists yet or not, so the first write and the later ones use the same lock.
 */
async function lockPathOf(path: string): Promise<string> {
  const isLink = await lstat(path).then(
    (info) => info.isSymbolicLink(),
    () => false,
  );
  const target = isLink ? await realpath(path).catch(() => path) : path;
  return `${resolve(target)}.lock`;
}

async function readForUpdate(path: string): Promise<Record<string, unknown>> {
  const file = await readAgentsJson(path);
  if (file.state === "corrupt")
    throw new AgentsJsonError(
      `${path} ${file.reason}. It was left untouched; fix or remove it by hand, then try again.`,
    );
  return file.state === "ok" ? file.entries : {};
}
