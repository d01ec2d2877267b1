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
import { costCommand } from "./cost-command.js";
import {
  connectCommand,
  editorCommand,
  indexCommand,
  notifyCommand,
  searchCommand,
  stopCommand,
} from "./input-commands.js";
import { planCommand, thinkCommand, thinkingCommand } from "./mode-commands.js";
import { modelCommand } from "./model-commands.js";
import { permissionsCommand } from "./permissions-command.js";
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
import {
  commandsCommand,
  handoffCommand,
  initDeepCommand,
  learnCommand,
  mapCommand,
  quickCommand,
  refactorCommand,
  resumeWorkCommand,
  retryCommand,
  statusCommand,
  verifyCommand,
} from "./workflow-commands.js";

/**
 * Every built-in slash command, each one object (name, description, arguments, kind, group, run)
 * defined in its group's file. `/help`, the palette (Ctrl+K) and completion read this list; a
 * command without `run` does not compile. Add a command by writing its object and listing it here.
 */
export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  // System
  helpCommand,
  exitCommand,
  editorCommand,
  // Provider
  modelCommand,
  loginCommand,
  connectCommand,
  // Agent
  thinkCommand,
  thinkingCommand,
  planCommand,
  trustCommand,
  permissionsCommand,
  sandboxCommand,
  stopCommand,
  quickCommand,
  refactorCommand,
  autopilotCommand,
  // Session
  compactCommand,
  contextCommand,
  costCommand,
  clearCommand,
  exportCommand,
  sessionsCommand,
  undoCommand,
  rewindCommand,
  checkpointCommand,
  retryCommand,
  searchCommand,
  handoffCommand,
  resumeWorkCommand,
  // View
  statusCommand,
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
  initDeepCommand,
  doctorCommand,
  commandsCommand,
  learnCommand,
  mapCommand,
  verifyCommand,
  indexCommand,
  // UI
  themeCommand,
  settingsCommand,
  notifyCommand,
  // Agents
  agentsCommand,
  subagentConfigCommand,
  teamCommand,
  teamsConfigCommand,
  bgCommand,
];
