import { findProjectRoot } from "@nyzhi/config";
import { loadCustomCommands, loadSkills } from "@nyzhi/core";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { loadCliConfig } from "./load-cli-config.js";

/** `nyz skills [--json]`: the skills and custom commands this project offers, with their files. */
export async function skillsCommand(
  io: CommandIo,
  flags: GlobalFlags,
  options: { json?: boolean },
): Promise<number> {
  const root = findProjectRoot(io.cwd);
  const { config } = await loadCliConfig(io, flags);
  const [skills, commands] = await Promise.all([loadSkills(root, io.env), loadCustomCommands(root, config)]);
  for (const warning of [...skills.warnings, ...commands.warnings]) io.stderr(`${warning}\n`);
  if (options.json) {
    io.stdout(`${JSON.stringify({ skills: skills.skills, commands: commands.commands }, null, 2)}\n`);
    return ExitCode.success;
  }
  if (skills.skills.length === 0) {
    io.stdout(
      "No skills found. Add one as .nyzhi/skills/<name>/SKILL.md (frontmatter: name, description).\n",
    );
  } else {
    io.stdout(`Skills (${skills.skills.length}):\n`);
    for (const skill of skills.skills)
      io.stdout(`  - ${skill.name} (${skill.source}): ${skill.description}\n      ${skill.path}\n`);
  }
  if (commands.commands.length > 0) {
    io.stdout(`Custom commands (${commands.commands.length}):\n`);
    for (const command of commands.commands) io.stdout(`  /${command.name}  ${command.description}\n`);
  }
  return ExitCode.success;
}
