/** Where a teammate is: `pending` (starting), `working`, `idle` (waiting for mail), `shutdown`, `stopped`. */
export type MemberState = "pending" | "working" | "idle" | "shutdown" | "stopped";

/** What changed in a team: its members (joined, left), a member's status, its task board, mail. */
export type TeamChange = "members" | "status" | "board" | "mail";

/** One teammate as the panel shows it. */
export interface TeammateSnapshot {
  name: string;
  /** Its agent in this process (its events feed the tree), if it has run. */
  agentId: string | undefined;
  role: string | undefined;
  state: MemberState;
  /** Messages in its inbox it has not read yet. */
  unread: number;
}

/** Task counts of a team's board: nobody's yet, owned and unfinished, completed (deleted ones not counted). */
export interface TaskBoardSummary {
  open: number;
  claimed: number;
  done: number;
}

/** A team as hosts show it: its members, its task board, the lead's unread mail. */
export interface TeamSummary {
  name: string;
  members: readonly TeammateSnapshot[];
  board: TaskBoardSummary;
  /** Unread messages in the lead's inbox of this team. */
  leadUnread: number;
}
