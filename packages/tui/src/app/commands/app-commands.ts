import type { OpenedSession } from "@nyzhi/core";
import { BUILTIN_COMMANDS, mergeCommands } from "../../commands/command-registry.js";
import { AGENT_COMMANDS } from "./agent-commands.js";
import { CHANGE_COMMANDS } from "./change-commands.js";
import type { AppCommand, CommandHandler } from "./command-types.js";
import { MODE_COMMANDS } from "./mode-commands.js";
import { MODEL_COMMANDS } from "./model-commands.js";
import { PROJECT_COMMANDS } from "./project-commands.js";
import { SESSION_COMMANDS } from "./session-commands.js";
import { SETUP_COMMANDS } from "./setup-commands.js";
import { SYSTEM_COMMANDS } from "./system-commands.js";

/** Handlers of the built-in commands, by name; one file per group. */
const HANDLERS: Readonly<Record<string, CommandHandler>> = {
  ...SYSTEM_COMMANDS,
  ...MODEL_COMMANDS,
  ...MODE_COMMANDS,
  ...SESSION_COMMANDS,
  ...CHANGE_COMMANDS,
  ...PROJECT_COMMANDS,
  ...AGENT_COMMANDS,
  ...SETUP_COMMANDS,
};

function notYet(name: string): CommandHandler {
  return (_args, context) => context.say(`/${name} is not in the app yet.`, "warning");
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
 * The project's commands from the session's catalogue (custom commands, MCP prompts, skills — built
 * in core, so `nyz exec` knows the same ones): listed for completion and the palette; running one
 * expands it through `session.expandCommand`.
 */
export async function loadExtraCommands(session: OpenedSession): Promise<AppCommand[]> {
  const GROUPS = { custom: "Custom", mcp: "MCP", skill: "Skills" } as const;
  return (await session.commands()).map(
    (command): AppCommand => ({
      name: command.name,
      description: command.description,
      kind: "prompt",
      args: command.argumentHint,
      group: GROUPS[command.source],
      source: command.source,
    }),
  );
}
