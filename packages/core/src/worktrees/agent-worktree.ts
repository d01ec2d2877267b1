import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { git, gitOrThrow } from "./git-command.js";
import { WorktreeError } from "./worktree-error.js";
import {
  listWorktreeRecords,
  processAlive,
  removeWorktreeRecord,
  type WorktreeRecord,
  writeWorktreeRecord,
} from "./worktree-records.js";

/** The git top level of `dir`, or a clear error when it is not in a repository. */
export async function gitTopLevel(dir: string): Promise<string> {
  const result = await git(dir, ["rev-parse", "--show-toplevel"]).catch(() => undefined);
  if (!result) {
    throw new WorktreeError(
      "worktree_no_git",
      'isolation "worktree" needs git, which is not installed (or not on PATH).',
    );
  }
  if (result.code !== 0) {
    throw new WorktreeError(
      "worktree_no_git",
      `isolation "worktree" needs a git repository, and ${dir} is not in one: run \`git init\` there first, or spawn the agent without isolation.`,
    );
  }
  return result.stdout.trim();
}

/**
 * A commit of `tree`'s current state — tracked changes and untracked files (ignored ones left out),
 * whether staged or not — without touching its index or files: a copy of the index takes `add -A`.
 * Its parent is `parent` (default HEAD; none in a repository without commits).
 */
export async function snapshotCommit(tree: string, parent?: string): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), "nyzhi-index-"));
  try {
    const index = join(scratch, "index");
    const gitIndex = await gitOrThrow(tree, ["rev-parse", "--git-path", "index"]);
    await copyFile(resolve(tree, gitIndex), index).catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    await gitOrThrow(tree, ["add", "-A", "--", "."], { env });
    const treeId = await gitOrThrow(tree, ["write-tree"], { env });
    const head = parent ?? (await git(tree, ["rev-parse", "--verify", "-q", "HEAD"])).stdout.trim();
    return await gitOrThrow(tree, [
      "commit-tree",
      treeId,
      ...(head ? ["-p", head] : []),
      "-m",
      "nyzhi: snapshot of the working tree",
    ]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Branch names from nicknames: `nyzhi/jade-1a2b3c4d`. */
function branchName(nickname: string, agentId: string): string {
  const slug =
    nickname
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "agent";
  return `nyzhi/${slug}-${agentId.slice(0, 8)}`;
}

/**
 * Makes an agent's worktree: a branch from its parent's tree as it is now (uncommitted and
 * untracked changes included), checked out under `<data dir>/worktrees/<agent id>`, recorded (with
 * this process's id) so a crash leaves nothing the next start cannot find.
 */
export async function createAgentWorktree(input: {
  parentTree: string;
  dataDir: string;
  agentId: string;
  nickname: string;
  parentId: string;
  sessionId: string;
}): Promise<WorktreeRecord> {
  const top = await gitTopLevel(input.parentTree);
  const base = await snapshotCommit(top);
  const branch = branchName(input.nickname, input.agentId);
  const dir = join(input.dataDir, "worktrees");
  await mkdir(dir, { recursive: true });
  const path = join(dir, input.agentId);
  const record: WorktreeRecord = {
    agentId: input.agentId,
    nickname: input.nickname,
    parentId: input.parentId,
    sessionId: input.sessionId,
    pid: process.pid,
    repo: top,
    parentTree: top,
    branch,
    path,
    base,
    state: "running",
    diffStat: "",
    createdAt: new Date().toISOString(),
  };
  // Recorded before git makes it: a crash in between still leaves a record to clean by.
  await writeWorktreeRecord(input.dataDir, record);
  await gitOrThrow(top, ["worktree", "add", "-b", branch, path, base]);
  return record;
}

/**
 * Commits what the agent changed in its worktree to its branch. Changed: the record becomes
 * `ready` (waiting for a merge or a discard) with its diff stat. Unchanged: worktree and branch
 * are removed at once, and undefined is returned.
 */
export async function finishAgentWorktree(
  dataDir: string,
  record: WorktreeRecord,
): Promise<WorktreeRecord | undefined> {
  await gitOrThrow(record.path, ["add", "-A", "--", "."]);
  const staged = await git(record.path, ["diff", "--cached", "--quiet"]);
  if (staged.code === 1) {
    await gitOrThrow(record.path, [
      "commit",
      "-q",
      "--no-verify",
      "-m",
      `nyzhi: changes of agent ${record.nickname}`,
    ]);
  }
  const stat = await gitOrThrow(record.path, ["diff", "--stat", record.base, "HEAD"]);
  if (!stat) {
    await removeAgentWorktree(dataDir, record);
    return undefined;
  }
  const ready: WorktreeRecord = { ...record, state: "ready", diffStat: stat.split("\n").at(-1)!.trim() };
  await writeWorktreeRecord(dataDir, ready);
  return ready;
}

/** The agent's changes as a unified diff (against the state it started from). */
export function agentWorktreeDiff(record: WorktreeRecord): Promise<string> {
  return gitOrThrow(record.repo, ["diff", record.base, record.branch]);
}

export type MergeOutcome = { merged: true; files: string[] } | { merged: false; conflicts: string[] };

/**
 * Applies the agent's changes to its parent's tree as uncommitted changes: a three-way merge of
 * the tree as it is now and the agent's branch, from the state the agent started from. A conflict
 * changes nothing — the person's tree and the agent's branch stay as they were — and names the
 * files. Merged, the worktree and its branch are removed.
 */
export async function mergeAgentWorktree(dataDir: string, record: WorktreeRecord): Promise<MergeOutcome> {
  const target = record.parentTree;
  // The target's state as a commit whose parent is the agent's base, so the merge base is that base.
  const current = await snapshotCommit(target, record.base);
  const merged = await git(target, [
    "merge-tree",
    "--write-tree",
    "--name-only",
    "--no-messages",
    current,
    record.branch,
  ]);
  const lines = merged.stdout.split("\n").filter(Boolean);
  if (merged.code === 1) return { merged: false, conflicts: [...new Set(lines.slice(1))] };
  if (merged.code !== 0) throw new Error(`git merge-tree failed in ${target}: ${merged.stderr.trim()}`);
  const tree = lines[0]!;
  const files = (await gitOrThrow(target, ["diff", "--name-only", current, tree]))
    .split("\n")
    .filter(Boolean);
  if (files.length > 0) {
    const patch = (await git(target, ["diff", "--binary", current, tree])).stdout;
    await gitOrThrow(target, ["apply", "--whitespace=nowarn"], { input: patch });
  }
  await removeAgentWorktree(dataDir, record);
  return { merged: true, files };
}

/** Removes the agent's worktree, its branch and its record (what `discard_agent_changes` does). */
export async function removeAgentWorktree(dataDir: string, record: WorktreeRecord): Promise<void> {
  await git(record.repo, ["worktree", "remove", "--force", record.path]);
  await rm(record.path, { recursive: true, force: true });
  await git(record.repo, ["worktree", "prune"]);
  await git(record.repo, ["branch", "-D", record.branch]);
  await removeWorktreeRecord(dataDir, record.agentId);
}

/**
 * At start: the worktrees of `repo` that earlier runs left. Those whose agent was still working
 * when its process died (a crash, a kill) are removed with their branches; those that finished
 * with changes (`ready`) stay for a decision and are returned.
 */
export async function sweepLeftoverWorktrees(
  dataDir: string,
  /** A directory of the project (its git top level is looked up only when records exist). */
  repo: string,
): Promise<{
  removed: WorktreeRecord[];
  waiting: WorktreeRecord[];
}> {
  const removed: WorktreeRecord[] = [];
  const waiting: WorktreeRecord[] = [];
  const records = await listWorktreeRecords(dataDir);
  if (records.length === 0) return { removed, waiting };
  const top = await gitTopLevel(repo).catch(() => undefined);
  for (const record of records) {
    if (record.repo !== top && !record.repo.startsWith(`${join(dataDir, "worktrees")}/`)) continue;
    if (record.state === "ready") waiting.push(record);
    else if (record.pid !== process.pid && !processAlive(record.pid)) {
      await removeAgentWorktree(dataDir, record);
      removed.push(record);
    }
  }
  return { removed, waiting };
}
