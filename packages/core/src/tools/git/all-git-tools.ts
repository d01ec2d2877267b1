import type { Tool } from "../define-tool.js";
import { gitBranchTool, gitDiffTool, gitLogTool, gitShowTool, gitStatusTool } from "./git-read-tools.js";
import { gitCheckoutTool, gitCommitTool } from "./git-write-tools.js";

/** The seven git tools: five read-only, `git_commit` and `git_checkout` mutating (execute kind). */
export function allGitTools(): Tool[] {
  return [gitStatusTool, gitDiffTool, gitLogTool, gitShowTool, gitBranchTool, gitCommitTool, gitCheckoutTool];
}
