import { join } from "node:path";
import { resolveDirs } from "@nyzhi/config";
import {
  listMemoryTopics,
  listNotepads,
  loadSkills,
  projectMemoryDir,
  readMemoryTopic,
  readNotepad,
} from "@nyzhi/core";
import type { CommandHandler } from "./command-types.js";

/** `/mcp`: each MCP server with its state and tools. */
const mcp: CommandHandler = (_args, context) => {
  const statuses = context.session.mcp.manager.statuses();
  if (statuses.length === 0) {
    return context.say("No MCP servers. Add one with `nyz mcp add <name> -- <command>` (or --url).");
  }
  const lines = statuses.map((status) => {
    const tools =
      status.tools.length > 0 ? ` · ${status.tools.length} tools: ${status.tools.join(", ")}` : "";
    return `${status.name} (${status.transport}, ${status.endpoint}): ${status.state}${
      status.error ? ` — ${status.error}` : ""
    }${tools}`;
  });
  context.say(lines.join("\n"));
};

/** `/memory [topic]`: the project's memory topics, or one topic's text. */
const memory: CommandHandler = async (args, context) => {
  const dir = await projectMemoryDir(context.session.projectRoot, resolveDirs(context.env));
  if (args) return context.say(await readMemoryTopic(dir, args));
  const topics = await listMemoryTopics(dir);
  context.say(
    topics.length === 0
      ? "No project memories yet (the agent writes them with memory_write)."
      : `Memory topics (/memory <topic> shows one):\n${topics.map((topic) => `  ${topic}`).join("\n")}`,
  );
};

/** `/notepad [name]`: the plans' notepads, or one notepad. */
const notepad: CommandHandler = async (args, context) => {
  const directory = join(context.session.projectRoot, ".nyzhi", "notepads");
  if (args) {
    const text = await readNotepad(join(directory, `${args}.md`));
    return context.say(text ?? `No notepad named ${args} (see /notepad).`, text ? "info" : "warning");
  }
  const notepads = await listNotepads(directory);
  context.say(
    notepads.length === 0
      ? "No notepads yet (.nyzhi/notepads)."
      : `Notepads (/notepad <name> shows one):\n${notepads.map((entry) => `  ${entry.plan}`).join("\n")}`,
  );
};

/** `/todo`: the lead's todo list. */
const todo: CommandHandler = (_args, context) => {
  const { todos } = context.session;
  context.say(todos.list().length === 0 ? "The todo list is empty." : todos.format());
};

/** `/hooks`: the configured hooks, by event. */
const hooks: CommandHandler = (_args, context) => {
  const configured = context.session.config.agent.hooks;
  if (configured.length === 0) return context.say("No hooks configured ([[agent.hooks]] in config.toml).");
  context.say(
    configured
      .map((hook) => {
        const what = hook.hook_type === "command" ? hook.command : `${hook.hook_type}: ${hook.prompt ?? ""}`;
        const filter = hook.tool_name ?? hook.pattern;
        return `${hook.event}${filter ? ` [${filter}]` : ""}${hook.block ? " (blocking)" : ""}: ${what}`;
      })
      .join("\n"),
  );
};

/** `/skills`: the skills the agent can load. */
const skills: CommandHandler = async (_args, context) => {
  const { skills: found } = await loadSkills(context.session.projectRoot, context.env);
  context.say(
    found.length === 0
      ? "No skills (.nyzhi/skills or .claude/skills)."
      : found.map((skill) => `${skill.name} — ${skill.description}`).join("\n"),
  );
};

export const PROJECT_COMMANDS: Readonly<Record<string, CommandHandler>> = {
  mcp,
  memory,
  notepad,
  todo,
  hooks,
  skills,
};
