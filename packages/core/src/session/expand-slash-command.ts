import { type NyzhiConfig, NyzhiError } from "@nyzhi/config";
import { expandCommand } from "../commands/expand-command.js";
import { loadCustomCommands } from "../commands/load-custom-commands.js";
import { parseSlashInput } from "../commands/parse-slash-input.js";
import { mcpPromptCommands } from "../mcp/mcp-prompt-commands.js";
import type { McpSession } from "../mcp/mcp-session.js";

/**
 * `/name args` becomes the custom command `name` (from .nyzhi/commands, .claude/commands or config)
 * or the MCP prompt `mcp__<server>__<prompt>`, expanded; other input comes back as it is. An
 * unknown name is a usage error listing the commands there are.
 */
export async function expandSlashCommand(
  prompt: string,
  options: {
    root: string;
    config: NyzhiConfig;
    mcp: McpSession | undefined;
    warn: (message: string) => void;
  },
): Promise<string> {
  const slash = parseSlashInput(prompt.trim());
  if (!slash) return prompt;
  const { commands, warnings } = await loadCustomCommands(options.root, options.config);
  for (const warning of warnings) options.warn(warning);
  const command = commands.find((candidate) => candidate.name === slash.name);
  if (command) return expandCommand(command, slash.args);
  const prompts =
    slash.name.startsWith("mcp__") && options.mcp ? await mcpPromptCommands(options.mcp.manager) : [];
  const mcpPrompt = prompts.find((candidate) => candidate.name === slash.name);
  if (mcpPrompt) return mcpPrompt.expand(slash.args);
  const known = [
    ...commands.map((candidate) => `/${candidate.name}`),
    ...prompts.map((candidate) => `/${candidate.name}`),
  ];
  throw new NyzhiError(
    "usage",
    `Unknown command /${slash.name}. Custom commands here: ${known.join(", ") || "none"}`,
  );
}
