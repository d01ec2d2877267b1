import type { OpenedSession } from "@nyzhi/core";
import { mergeCommands } from "../../commands/command-registry.js";
import { BUILTIN_COMMANDS } from "./builtin-commands.js";
import type { AppCommand } from "./command-types.js";

/** The built-in commands, then `extra` (custom commands, MCP prompts, skills); sorted by name. */
export function appCommands(extra: readonly AppCommand[] = []): AppCommand[] {
  return mergeCommands<AppCommand>(BUILTIN_COMMANDS, extra);
}

/**
 * The project's commands from the session's catalogue (custom commands, MCP prompts, skills — built
 * in core, so `nyz exec` knows the same ones): listed for completion and the palette; running one
 * expands it through `session.expandCommand` and sends the result as a prompt.
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
      run: async (args, context) => {
        const typed = `/${command.name}${args ? ` ${args}` : ""}`;
        context.send(await context.session.expandCommand(typed), { display: typed });
      },
    }),
  );
}
