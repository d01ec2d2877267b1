import { loadCustomCommands, mcpPromptCommands, type OpenedSession } from "@nyzhi/core";
import { BUILTIN_COMMANDS, mergeCommands } from "../../commands/command-registry.js";
import { AGENT_COMMANDS } from "./agent-commands.js";
import { CHANGE_COMMANDS } from "./change-commands.js";
import type { AppCommand, CommandHandler } from "./command-types.js";
import { MODEL_COMMANDS } from "./model-commands.js";
import { PROJECT_COMMANDS } from "./project-commands.js";
import { SESSION_COMMANDS } from "./session-commands.js";
import { SYSTEM_COMMANDS } from "./system-commands.js";

/** Handlers of the built-in commands, by name; one file per group. */
const HANDLERS: Readonly<Record<string, CommandHandler>> = {
  ...SYSTEM_COMMANDS,
  ...MODEL_COMMANDS,
  ...SESSION_COMMANDS,
  ...CHANGE_COMMANDS,
  ...PROJECT_COMMANDS,
  ...AGENT_COMMANDS,
};

/** Built-ins the app does not run yet: what to use instead. */
const SHELL_INSTEAD: Readonly<Record<string, string>> = {
  login: "nyz login",
  init: "nyz init",
  doctor: "nyz auth status",
  settings: "nyz config",
  trust: "nyz config set agent.trust.mode <mode>",
  sandbox: "nyz config set agent.sandbox <level>",
  theme: "nyz config set tui.theme <dark|light|auto>",
};

function notYet(name: string): CommandHandler {
  const instead = SHELL_INSTEAD[name];
  return (_args, context) =>
    context.say(`/${name} is not in the app yet${instead ? `; in a shell: ${instead}` : ""}.`, "warning");
}

/** The built-in commands with their handlers, then `extra` (custom commands, MCP prompts). */
export function appCommands(extra: readonly AppCommand[] = []): AppCommand[] {
  const builtins = BUILTIN_COMMANDS.map(
    (command): AppCommand => ({
      ...command,
      source: "builtin",
      handler: HANDLERS[command.name] ?? notYet(command.name),
    }),
  );
  return mergeCommands<CommandHandler>(builtins, extra);
}

/**
 * The project's custom commands (`.nyzhi/commands`, `.claude/commands`, config) and the MCP
 * servers' prompts (`/mcp__<server>__<prompt>`): listed for completion and the palette; running one
 * expands it through `session.expandCommand`.
 */
export async function loadExtraCommands(session: OpenedSession): Promise<AppCommand[]> {
  const { commands } = await loadCustomCommands(session.projectRoot, session.config);
  const prompts = await mcpPromptCommands(session.mcp.manager).catch(() => []);
  return [
    ...commands.map(
      (command): AppCommand => ({
        name: command.name,
        description: command.description || "custom command",
        kind: "prompt",
        args: command.argumentHint,
        group: "Custom",
        source: "custom",
      }),
    ),
    ...prompts.map(
      (prompt): AppCommand => ({
        name: prompt.name,
        description: prompt.description,
        kind: "prompt",
        args: prompt.argumentHint,
        group: "MCP",
        source: "mcp",
      }),
    ),
  ];
}
