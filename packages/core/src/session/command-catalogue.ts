import { type Environment, type NyzhiConfig, NyzhiError } from "@nyzhi/config";
import { expandCommand } from "../commands/expand-command.js";
import { loadCustomCommands } from "../commands/load-custom-commands.js";
import { parseSlashInput } from "../commands/parse-slash-input.js";
import { mcpPromptCommands } from "../mcp/mcp-prompt-commands.js";
import type { McpSession } from "../mcp/mcp-session.js";
import { loadSkills } from "../skills/load-skills.js";

/** A slash command of the project: a custom command, an MCP server's prompt or a skill. */
export interface CatalogueCommand {
  name: string;
  /** Shown in the palette and completion; never empty. */
  description: string;
  /** What goes after the name, e.g. `[file] [focus]`. */
  argumentHint?: string;
  source: "custom" | "mcp" | "skill";
  /** The prompt `/name args` sends as the user's message. */
  expand(args: string): Promise<string>;
}

export interface CommandCatalogueOptions {
  root: string;
  config: NyzhiConfig;
  env: Environment;
  mcp: McpSession | undefined;
  warn: (message: string) => void;
}

/**
 * `/<skill> args`: the model loads the skill (`load_skill`, as it would on its own) and follows
 * it for what was typed after the name.
 */
export function skillPrompt(name: string, args: string): string {
  return `Use the skill "${name}": load it with load_skill and follow it.${args ? `\n\n${args}` : ""}`;
}

/**
 * The project's slash commands, built once here for every host (the app lists them; `nyz exec`
 * expands them): custom commands (`.nyzhi/commands`, `.claude/commands`, `[[agent.commands]]`),
 * MCP prompts (`/mcp__<server>__<prompt>`) and skills (`/<skill>`), in that order of precedence
 * when names clash. Files that fail to load are skipped with a warning.
 */
export async function loadCommandCatalogue(options: CommandCatalogueOptions): Promise<CatalogueCommand[]> {
  const { commands, warnings } = await loadCustomCommands(options.root, options.config);
  for (const warning of warnings) options.warn(warning);
  const prompts = options.mcp ? await mcpPromptCommands(options.mcp.manager).catch(() => []) : [];
  const skills = await loadSkills(options.root, options.env).catch(() => ({ skills: [], warnings: [] }));
  for (const warning of skills.warnings) options.warn(warning);
  const catalogue: CatalogueCommand[] = [
    ...commands.map(
      (command): CatalogueCommand => ({
        name: command.name,
        description: command.description || "custom command",
        ...(command.argumentHint ? { argumentHint: command.argumentHint } : {}),
        source: "custom",
        expand: async (args) => expandCommand(command, args),
      }),
    ),
    ...prompts.map(
      (prompt): CatalogueCommand => ({
        name: prompt.name,
        description: prompt.description || "MCP prompt",
        ...(prompt.argumentHint ? { argumentHint: prompt.argumentHint } : {}),
        source: "mcp",
        expand: (args) => prompt.expand(args),
      }),
    ),
    ...skills.skills.map(
      (skill): CatalogueCommand => ({
        name: skill.name,
        description: skill.description || "skill",
        argumentHint: "[what to do]",
        source: "skill",
        expand: async (args) => skillPrompt(skill.name, args),
      }),
    ),
  ];
  const seen = new Set<string>();
  return catalogue.filter((command) => !seen.has(command.name) && seen.add(command.name));
}

/**
 * `/name args` expanded to its command's prompt (see `loadCommandCatalogue`); other input comes
 * back as it is. An unknown name is a usage error listing the commands there are.
 */
export async function expandSlashCommand(prompt: string, options: CommandCatalogueOptions): Promise<string> {
  const slash = parseSlashInput(prompt.trim());
  if (!slash) return prompt;
  const catalogue = await loadCommandCatalogue(options);
  const command = catalogue.find((candidate) => candidate.name === slash.name);
  if (command) return command.expand(slash.args);
  const known = catalogue.map((candidate) => `/${candidate.name}`);
  throw new NyzhiError(
    "usage",
    `Unknown command /${slash.name}. Commands here: ${known.join(", ") || "none"}`,
  );
}
