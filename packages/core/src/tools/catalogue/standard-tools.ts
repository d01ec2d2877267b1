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
import { fileSearchAndPlanningTools } from "./file-search-and-planning-tools.js";

/**
 * The tools any agent may be offered, before role fencing, plan mode or read-only roles: files,
 * search, planning, shell, git, web, memory, skills and `ask_user`. The agents' and teams' tools
 * and MCP's are `toolCatalogue`'s other sections.
 */
export function standardTools(): Tool[] {
  return [
    ...fileSearchAndPlanningTools(),
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
