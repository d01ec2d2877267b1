import type { Logger } from "@nyzhi/config";
import { compareText } from "@nyzhi/config";
import type { CustomCommand } from "../commands/custom-command.js";
import { describeContent } from "./map-mcp-result.js";
import type { McpManager } from "./mcp-manager.js";

/** An MCP prompt offered as a slash command: `/mcp__<server>__<prompt> args`. */
export interface McpPromptCommand extends Omit<CustomCommand, "source" | "template"> {
  source: "mcp";
  server: string;
  prompt: string;
  /** Argument names in order: `/cmd a b` fills them positionally; `$ARGUMENTS` fills the first. */
  argumentNames: string[];
  /** Asks the server for the prompt's messages and returns the text to send as the user's message. */
  expand(args: string): Promise<string>;
}

/**
 * The prompts of every connected server as commands named like tools (`mcp__lab__review`). Words
 * of the argument text fill the prompt's arguments in order; the last argument takes the rest.
 * A server that fails to list its prompts is logged and skipped; servers still connecting are waited for.
 */
export async function mcpPromptCommands(manager: McpManager, logger?: Logger): Promise<McpPromptCommand[]> {
  // Servers still starting in the background (their tools known from an earlier session) are
  // waited for: their prompts are only known live.
  await manager.settled();
  const commands: McpPromptCommand[] = [];
  for (const status of manager.statuses()) {
    const connection = manager.connection(status.name);
    if (!connection?.client.getServerCapabilities()?.prompts) continue;
    try {
      const { prompts } = await connection.client.listPrompts();
      for (const prompt of prompts) {
        const argumentNames = (prompt.arguments ?? []).map((argument) => argument.name);
        commands.push({
          name: `mcp__${status.name}__${prompt.name}`.replace(/[^\w.:-]/g, "_"),
          description: prompt.description ?? `MCP prompt from ${status.name}`,
          server: status.name,
          prompt: prompt.name,
          source: "mcp",
          argumentNames,
          ...(argumentNames.length > 0
            ? { argumentHint: argumentNames.map((name) => `[${name}]`).join(" ") }
            : {}),
          async expand(args) {
            const values = fillArguments(argumentNames, args);
            const result = await manager
              .requireConnection(status.name)
              .client.getPrompt({ name: prompt.name, arguments: values });
            return result.messages
              .map((message) => describeContent(message.content as Parameters<typeof describeContent>[0]))
              .join("\n\n")
              .trim();
          },
        });
      }
    } catch (error) {
      logger?.warn({ server: status.name, err: error }, "mcp prompts/list failed");
    }
  }
  return commands.sort((left, right) => compareText(left.name, right.name));
}

function fillArguments(names: readonly string[], args: string): Record<string, string> {
  const words = args.trim() === "" ? [] : args.trim().split(/\s+/);
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    const value = index === names.length - 1 ? words.slice(index).join(" ") : words[index];
    if (value) values[name] = value;
  });
  return values;
}
