import { realpath } from "node:fs/promises";
import { join, relative } from "node:path";
import { ChangeTracker } from "../changes/change-tracker.js";
import type { SandboxSettings } from "../engines/sandbox/sandbox-settings.js";
import type { PathGuard } from "../tools/seam/tool-types.js";
import { createAgentWorktree } from "../worktrees/agent-worktree.js";
import type { WorktreeRecord } from "../worktrees/worktree-records.js";
import type { AgentPlace } from "./child-factory.js";

/**
 * Where agents with `isolation: "worktree"` work: each gets a worktree made from its parent's
 * tree (the lead's is the person's; a worktree child's children branch from its worktree), and
 * a place bound to it — its working directory and project root mapped into the worktree, a path
 * guard and sandbox whose only root is the worktree, and its own change tracker.
 */
export function worktreePlaces(input: {
  lead: AgentPlace;
  dataDir: string;
  sessionId: string;
  guardFor: (root: string, cwd: string) => PathGuard;
  sandbox: SandboxSettings;
}) {
  const places = new Map<string, AgentPlace>();
  return {
    placeOf: (agentId: string): AgentPlace | undefined => places.get(agentId),
    async open(request: { agentId: string; nickname: string; parentId: string }): Promise<{
      record: WorktreeRecord;
      place: AgentPlace;
    }> {
      const parent = places.get(request.parentId) ?? input.lead;
      const record = await createAgentWorktree({
        parentTree: parent.cwd,
        dataDir: input.dataDir,
        agentId: request.agentId,
        nickname: request.nickname,
        parentId: request.parentId,
        sessionId: input.sessionId,
      });
      const inside = async (path: string) => join(record.path, relative(record.repo, await realpath(path)));
      const cwd = await inside(parent.cwd);
      const projectRoot = await inside(parent.projectRoot);
      const place: AgentPlace = {
        cwd,
        projectRoot,
        guard: input.guardFor(record.path, cwd),
        sandbox: { ...input.sandbox, roots: [record.path] },
        tracker: new ChangeTracker(),
      };
      places.set(request.agentId, place);
      return { record, place };
    },
  };
}
