import type { OpenedSession } from "@nyzhi/core";

/**
 * `d` / `m` / `X` on an agent whose worktree's changes wait: its diff, or merge them into your
 * tree (a conflict changes nothing and names the files), or throw them away.
 */
export async function decideAgentChanges(
  session: OpenedSession,
  panel: { decided(agentId: string): void },
  agentId: string,
  action: "diff" | "merge" | "discard",
): Promise<string> {
  if (action === "diff") return (await session.agentChanges(agentId)) || "(no changes)";
  const message =
    action === "merge"
      ? await session.mergeAgentChanges(agentId)
      : await session.discardAgentChanges(agentId);
  panel.decided(agentId);
  return message;
}
