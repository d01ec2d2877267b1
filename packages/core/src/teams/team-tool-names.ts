/**
 * The nine team tools' names (spec core §3.5); the tools are in `tools/teams/`, and
 * `tools/deferred` defers them as one family. None declares `paths`: they write only team configs,
 * inboxes and task boards in nyzhi's data dir (`dirs.teams`, `dirs.tasks`), nyzhi's own state,
 * which the sandbox levels do not cover; the teammates they start run under the same sandbox
 * (docs/security.md, "What a tool declares").
 */
export const TEAM_TOOL_NAMES = [
  "team_create",
  "team_delete",
  "team_list",
  "send_team_message",
  "read_inbox",
  "task_create",
  "task_update",
  "task_list",
  "spawn_teammate",
] as const;
