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
import type { BuiltinCommand } from "./command-types.js";

/** `/mcp`: each MCP server with its state and tools. */
export const mcpCommand: BuiltinCommand = {
  name: "mcp",
  description: "MCP servers and their tools",
  kind: "instant",
  group: "Project",
  run: (_args, context) => {
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
  },
};

/** `/memory [topic]`: the project's memory topics, or one topic's text. */
export const memoryCommand: BuiltinCommand = {
  name: "memory",
  description: "Show or edit memory topics",
  kind: "instant",
  args: "[topic]",
  group: "View",
  run: async (args, context) => {
    const dir = await projectMemoryDir(context.session.projectRoot, resolveDirs(context.env));
    if (args) return context.say(await readMemoryTopic(dir, args));
    const topics = await listMemoryTopics(dir);
    context.say(
      topics.length === 0
        ? "No project memories yet (the agent writes them with memory_write)."
        : `Memory topics (/memory <topic> shows one):\n${topics.map((topic) => `  ${topic}`).join("\n")}`,
    );
  },
};

/** `/notepad [name]`: the plans' notepads, or one notepad. */
export const notepadCommand: BuiltinCommand = {
  name: "notepad",
  description: "Show the plan's notepads",
  kind: "instant",
  args: "[name]",
  group: "View",
  run: async (args, context) => {
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
  },
};

/** `/todo`: the lead's todo list. */
export const todoCommand: BuiltinCommand = {
  name: "todo",
  description: "Show the todo list",
  kind: "instant",
  group: "View",
  run: (_args, context) => {
    const { todos } = context.session;
    context.say(todos.list().length === 0 ? "The todo list is empty." : todos.format());
  },
};

/** `/hooks`: the configured hooks, by event. */
export const hooksCommand: BuiltinCommand = {
  name: "hooks",
  description: "List configured hooks",
  kind: "instant",
  group: "Project",
  run: (_args, context) => {
    const configured = context.session.config.agent.hooks;
    if (configured.length === 0) return context.say("No hooks configured ([[agent.hooks]] in config.toml).");
    context.say(
      configured
        .map((hook) => {
          const what =
            hook.hook_type === "command" ? hook.command : `${hook.hook_type}: ${hook.prompt ?? ""}`;
          const filter = hook.tool_name ?? hook.pattern;
          return `${hook.event}${filter ? ` [${filter}]` : ""}${hook.block ? " (blocking)" : ""}: ${what}`;
        })
        .join("\n"),
    );
  },
};

/** `/skills`: the skills the agent can load. */
export const skillsCommand: BuiltinCommand = {
  name: "skills",
  description: "List skills",
  kind: "instant",
  group: "Project",
  run: async (_args, context) => {
    const { skills: found } = await loadSkills(context.session.projectRoot, context.env);
    context.say(
      found.length === 0
        ? "No skills (.nyzhi/skills or .claude/skills)."
        : found.map((skill) => `${skill.name} — ${skill.description}`).join("\n"),
    );
  },
};
