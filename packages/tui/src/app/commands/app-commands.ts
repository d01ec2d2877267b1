import type { Environment } from "@nyzhi/config";
import { loadCustomCommands, loadSkills, mcpPromptCommands, type OpenedSession } from "@nyzhi/core";
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

/**
 * `/<skill> args`: the model loads the skill (`load_skill`, as it would on its own) and follows
 * it for what was typed after the name.
 */
export function skillPrompt(name: string, args: string): string {
  return `Use the skill "${name}": load it with load_skill and follow it.${args ? `\n\n${args}` : ""}`;
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
export async function loadExtraCommands(session: OpenedSession, env: Environment): Promise<AppCommand[]> {
  const { commands } = await loadCustomCommands(session.projectRoot, session.config);
  const prompts = await mcpPromptCommands(session.mcp.manager).catch(() => []);
  const { skills } = await loadSkills(session.projectRoot, env).catch(() => ({ skills: [] }));
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
    ...skills.map(
      (skill): AppCommand => ({
        name: skill.name,
        description: skill.description || "skill",
        kind: "prompt",
        args: "[what to do]",
        group: "Skills",
        source: "skill",
        handler: (args, context) =>
          context.send(skillPrompt(skill.name, args), { display: `/${skill.name}${args ? ` ${args}` : ""}` }),
      }),
    ),
  ];
}
