import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { getLogger, writeFileAtomic } from "@nyzhi/config";

/**
 * What nyzhi knows of one agent worktree, kept as `<data dir>/worktrees/<agent id>.json` beside
 * the worktree itself, so another start can find it after a crash.
 */
export interface WorktreeRecord {
  agentId: string;
  nickname: string;
  /** The agent that spawned it: it (or the lead, or the person) decides on the changes. */
  parentId: string;
  sessionId: string;
  /** The process that made it: while it is `running` and that process is gone, it was a crash. */
  pid: number;
  /** The repository's top level (where `git worktree` and the branch live). */
  repo: string;
  /** Where a merge applies the agent's changes: its parent's tree. */
  parentTree: string;
  branch: string;
  /** The worktree's directory. */
  path: string;
  /** The commit it started from (its parent's state, uncommitted changes included). */
  base: string;
  /** `running`: the agent works in it; `ready`: it finished with changes waiting for a decision. */
  state: "running" | "ready";
  /** `git diff --stat`'s summary line once ready (`2 files changed, 5 insertions(+)`). */
  diffStat: string;
  createdAt: string;
}

const recordsDir = (dataDir: string) => join(dataDir, "worktrees");

export async function writeWorktreeRecord(dataDir: string, record: WorktreeRecord): Promise<void> {
  await writeFileAtomic(
    join(recordsDir(dataDir), `${record.agentId}.json`),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}

export async function removeWorktreeRecord(dataDir: string, agentId: string): Promise<void> {
  await rm(join(recordsDir(dataDir), `${agentId}.json`), { force: true });
}

/** Every record (of every repository); unreadable ones are logged and skipped. */
export async function listWorktreeRecords(dataDir: string): Promise<WorktreeRecord[]> {
  const names = await readdir(recordsDir(dataDir)).catch(() => [] as string[]);
  const records: WorktreeRecord[] = [];
  for (const name of names.filter((entry) => entry.endsWith(".json"))) {
    const path = join(recordsDir(dataDir), name);
    try {
      const record = JSON.parse(await readFile(path, "utf8")) as WorktreeRecord;
      if (typeof record.agentId === "string" && typeof record.repo === "string") records.push(record);
      else getLogger().warn({ path }, "skipped a worktree record without agentId or repo");
    } catch (error) {
      getLogger().warn({ path, error }, "skipped an unreadable worktree record");
    }
  }
  return records;
}

/** Whether the process that made a record still runs. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
