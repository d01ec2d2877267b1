import { gitBranchTool, gitDiffTool, gitLogTool, gitShowTool, gitStatusTool } from "../git/git-read-tools.js";
import { gitCheckoutTool, gitCommitTool } from "../git/git-write-tools.js";
import { askUserTool } from "../interact/ask-user-tool.js";
import { memoryReadTool } from "../memory/memory-read-tool.js";
import { memoryWriteTool } from "../memory/memory-write-tool.js";
import type { Tool } from "../seam/define-tool.js";
import { semanticSearchTool } from "../search/semantic-search-tool.js";
import { createBashTool } from "../shell/bash.js";
import { createVerifyTool } from "../shell/verify.js";
import { loadSkillTool } from "../skills/load-skill-tool.js";
import { webFetchTool } from "../web/web-fetch-tool.js";
import { allFileTools } from "./all-file-tools.js";

/** Every built-in tool an agent can be offered (before role fencing, plan mode or read-only roles). */
export function builtinTools(): Tool[] {
  return [
    ...allFileTools(),
    semanticSearchTool,
    createBashTool(),
    createVerifyTool(),
    gitStatusTool,
    gitDiffTool,
    gitLogTool,
    gitShowTool,
    gitBranchTool,
    gitCommitTool,
    gitCheckoutTool,
    webFetchTool,
    askUserTool,
    memoryReadTool,
    memoryWriteTool,
    loadSkillTool,
  ];
}
