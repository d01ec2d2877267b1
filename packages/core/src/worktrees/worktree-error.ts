import { NyzhiError } from "@nyzhi/config";

/** An agent worktree that cannot be made or used (outside git, a failed git command); the message says why. */
export class WorktreeError extends NyzhiError {}
