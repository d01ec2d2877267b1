import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type CustomCommandConfig, compareText, errorMessage } from "@nyzhi/config";
import { readFrontMatter } from "../skills/read-front-matter.js";
import {
  COMMAND_NAME,
  type CustomCommand,
  type CustomCommandSource,
  type LoadedCustomCommands,
} from "./custom-command.js";

/** The part of the config custom commands read (`[[agent.commands]]`). */
export interface CustomCommandsConfig {
  agent: { commands: readonly CustomCommandConfig[] };
}

/** The directories searched, highest precedence first. */
export function commandDirs(root: string): { dir: string; source: CustomCommandSource }[] {
  return [
    { dir: join(root, ".nyzhi", "commands"), source: "nyzhi" },
    { dir: join(root, ".claude", "commands"), source: "claude" },
  ];
}

/**
 * Finds custom slash commands: `<root>/.nyzhi/commands/*.md`, then `<root>/.claude/commands/*.md`
 * (`.nyzhi` wins on a name clash), then `[[agent.commands]]` from config, which overrides a file of
 * the same name. A file's name is its stem; its description is the front matter's `description`
 * (Claude Code style), else a first line `# description`, which is then left out of the template.
 * Files with broken front matter, an empty template or an unusable name are skipped with a warning.
 */
export async function loadCustomCommands(
  root: string,
  config: CustomCommandsConfig,
): Promise<LoadedCustomCommands> {
  const byName = new Map<string, CustomCommand>();
  const warnings: string[] = [];
  for (const { dir, source } of commandDirs(root)) {
    for (const command of await commandsIn(dir, source, warnings)) {
      if (!byName.has(command.name)) byName.set(command.name, command);
    }
  }
  config.agent.commands.forEach((entry, index) => {
    const where = `config agent.commands[${index}]`;
    if (!COMMAND_NAME.test(entry.name)) {
      warnings.push(`warning: ${where}: invalid command name '${entry.name}'; command skipped`);
      return;
    }
    if (entry.prompt.trim() === "") {
      warnings.push(`warning: ${where}: command '${entry.name}' has an empty prompt; command skipped`);
      return;
    }
    byName.set(entry.name, {
      name: entry.name,
      description: entry.description?.trim() ?? "",
      template: entry.prompt.trim(),
      source: "config",
    });
  });
  const commands = [...byName.values()].sort((left, right) => compareText(left.name, right.name));
  return { commands, warnings };
}

async function commandsIn(
  dir: string,
  source: CustomCommandSource,
  warnings: string[],
): Promise<CustomCommand[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = entries
    .filter((entry) => !entry.isDirectory() && entry.name.endsWith(".md") && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
  const commands: CustomCommand[] = [];
  for (const file of files) {
    const command = await readCommand(join(dir, file), file.slice(0, -3), source, warnings);
    if (command) commands.push(command);
  }
  return commands;
}

async function readCommand(
  path: string,
  name: string,
  source: CustomCommandSource,
  warnings: string[],
): Promise<CustomCommand | undefined> {
  if (!COMMAND_NAME.test(name)) {
    warnings.push(`warning: ${path}: invalid command name '${name}'; command skipped`);
    return undefined;
  }
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    warnings.push(`warning: ${path}: cannot read (${errorMessage(error)}); command skipped`);
    return undefined;
  }
  const parsed = await readFrontMatter(text);
  if (!parsed.ok) {
    warnings.push(`warning: ${path}: invalid front matter (${parsed.reason}); command skipped`);
    return undefined;
  }
  let description = oneLine(parsed.data.description);
  let template = parsed.body.replace(/^\s*\n/, "");
  if (description === undefined) {
    const heading = /^#[ \t]+(.+)(?:\r?\n|$)/.exec(template);
    if (heading) {
      description = heading[1]!.trim();
      template = template.slice(heading[0].length);
    }
  }
  template = template.trim();
  if (template === "") {
    warnings.push(`warning: ${path}: empty command template; command skipped`);
    return undefined;
  }
  const command: CustomCommand = { name, description: description ?? "", template, source, path };
  const hint = oneLine(parsed.data["argument-hint"]);
  if (hint !== undefined) command.argumentHint = hint;
  return command;
}

function oneLine(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/\s+/g, " ").trim();
  return text === "" ? undefined : text;
}
