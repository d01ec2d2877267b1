import { gitBranchTool, gitDiffTool, gitLogTool, gitShowTool, gitStatusTool } from "../git/git-read-tools.js";
import { gitCheckoutTool, gitCommitTool } from "../git/git-write-tools.js";
import type { Tool } from "../seam/define-tool.js";

/** The seven git tools: five read-only, `git_commit` and `git_checkout` mutating (execute kind). */
export function allGitTools(): Tool[] {
  return [gitStatusTool, gitDiffTool, gitLogTool, gitShowTool, gitBranchTool, gitCommitTool, gitCheckoutTool];
}
