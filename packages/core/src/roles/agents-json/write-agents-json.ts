import { NyzhiError, writeFileAtomic } from "@nyzhi/config";
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
 * fields this version does not know) as they are. The write is atomic (temp file + rename). A
 * file that is not valid JSON is never overwritten: the write is refused with the reason.
 * Returns whether an entry of that name was replaced.
 */
export async function writeAgentEntry(
  path: string,
  name: string,
  definition: AgentDefinition,
): Promise<{ replaced: boolean }> {
  const entries = await readForUpdate(path);
  const replaced = Object.hasOwn(entries, name);
  const next: Record<string, unknown> = { ...entries, [name]: definition };
  await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
  return { replaced };
}

/** Removes one entry, keeping the others; returns false (and writes nothing) when it is absent. */
export async function removeAgentEntry(path: string, name: string): Promise<boolean> {
  const entries = await readForUpdate(path);
  if (!Object.hasOwn(entries, name)) return false;
  const next = { ...entries };
  delete next[name];
  await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
  return true;
}

async function readForUpdate(path: string): Promise<Record<string, unknown>> {
  const file = await readAgentsJson(path);
  if (file.state === "corrupt")
    throw new AgentsJsonError(
      `${path} ${file.reason}. It was left untouched; fix or remove it by hand, then try again.`,
    );
  return file.state === "ok" ? file.entries : {};
}
