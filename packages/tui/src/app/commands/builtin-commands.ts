import {
  agentsCommand,
  bgCommand,
  subagentConfigCommand,
  teamCommand,
  teamsConfigCommand,
} from "./agent-commands.js";
import { autopilotCommand } from "./autopilot-command.js";
import {
  changesCommand,
  checkpointCommand,
  diffCommand,
  rewindCommand,
  undoCommand,
} from "./change-commands.js";
import type { BuiltinCommand } from "./command-types.js";
import { planCommand, thinkCommand, thinkingCommand } from "./mode-commands.js";
import { modelCommand } from "./model-commands.js";
import {
  hooksCommand,
  mcpCommand,
  memoryCommand,
  notepadCommand,
  skillsCommand,
  todoCommand,
} from "./project-commands.js";
import {
  clearCommand,
  compactCommand,
  contextCommand,
  exportCommand,
  sessionsCommand,
} from "./session-commands.js";
import {
  doctorCommand,
  initCommand,
  loginCommand,
  sandboxCommand,
  settingsCommand,
  themeCommand,
  trustCommand,
} from "./setup-commands.js";
import { exitCommand, helpCommand } from "./system-commands.js";

/**
 * Every built-in slash command, each one object (name, description, arguments, kind, group, run)
 * defined in its group's file. `/help`, the palette (Ctrl+K) and completion read this list; a
 * command without `run` does not compile. Add a command by writing its object and listing it here.
 */
export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  // System
  helpCommand,
  exitCommand,
  // Provider
  modelCommand,
  loginCommand,
  // Agent
  thinkCommand,
  thinkingCommand,
  planCommand,
  trustCommand,
  sandboxCommand,
  autopilotCommand,
  // Session
  compactCommand,
  contextCommand,
  clearCommand,
  exportCommand,
  sessionsCommand,
  undoCommand,
  rewindCommand,
  checkpointCommand,
  // View
  diffCommand,
  changesCommand,
  memoryCommand,
  notepadCommand,
  todoCommand,
  // Project
  mcpCommand,
  hooksCommand,
  skillsCommand,
  initCommand,
  doctorCommand,
  // UI
  themeCommand,
  settingsCommand,
  // Agents
  agentsCommand,
  subagentConfigCommand,
  teamCommand,
  teamsConfigCommand,
  bgCommand,
];
