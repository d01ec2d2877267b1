import { resolveDirs } from "@nyzhi/config";
import { formatRoleCatalog, formatTaskLine, RoleCatalog, type TeamSummary } from "@nyzhi/core";
import { formatBoard } from "../../agents/agent-tree.js";
import { formatElapsed } from "../../agents/format-agent.js";
import type { BuiltinCommand, CommandContext } from "./command-types.js";

async function loadRoles(context: CommandContext): Promise<RoleCatalog> {
  const { session } = context;
  return RoleCatalog.load({
    config: session.config,
    origins: session.loaded?.origins,
    projectRoot: session.projectRoot,
    globalConfigDir: resolveDirs(context.env).config,
  });
}

/** `/agents`: shows or hides the agents panel, and lists every role with its source (`nyz agents`). */
export const agentsCommand: BuiltinCommand = {
  name: "agents",
  description: "Show or hide the agents panel; list the roles",
  kind: "instant",
  group: "Agents",
  run: async (_args, context) => {
    context.agents.toggle();
    const catalog = await loadRoles(context);
    const listing = formatRoleCatalog(catalog.list(), {
      subagentsEnabled: context.session.config.agent.agents.enabled,
    });
    const warnings = catalog.warnings.map((warning) => `warning: ${warning.message}`);
    context.say(["Roles (ctrl+t shows or hides the panel):", listing.trimEnd(), ...warnings].join("\n"));
  },
};

const SUBAGENT_CONFIG_USAGE = "Usage: /subagent-config [list | set <role> <model> | reset <role>]";

/**
 * `/subagent-config set <role> <model> | reset <role> | list`: this session's model per subagent
 * role, over the role's own model and `agent.agents.subagent_model`, from the next child on.
 */
export const subagentConfigCommand: BuiltinCommand = {
  name: "subagent-config",
  description: "Model per subagent role, this session",
  kind: "instant",
  args: "[list|set <role> <model>|reset <role>]",
  group: "Agents",
  run: async (args, context) => {
    const { session } = context;
    const [verb = "list", role, ...rest] = args.split(/\s+/).filter(Boolean);
    if (verb === "list") {
      const overrides = Object.entries(session.subagentModels());
      if (overrides.length === 0)
        return context.say(
          "No session overrides: each subagent uses its role's model, else agent.agents.subagent_model, else the lead's.",
        );
      return context.say(
        [
          "Subagent models for this session:",
          ...overrides.map(([name, model]) => `  ${name} → ${model}`),
        ].join("\n"),
      );
    }
    if ((verb !== "set" && verb !== "reset") || !role) return context.say(SUBAGENT_CONFIG_USAGE, "warning");
    const model = rest.join(" ");
    if (verb === "set" && !model) return context.say(SUBAGENT_CONFIG_USAGE, "warning");
    const catalog = await loadRoles(context);
    if (verb === "set" && !catalog.list().some((entry) => entry.name === role))
      return context.say(`No role named ${role}; /agents lists them.`, "warning");
    session.setSubagentModel(role, verb === "set" ? model : undefined);
    context.say(
      verb === "set"
        ? `The next ${role} subagents use ${model} (this session).`
        : `${role} subagents use their configured model again.`,
    );
  },
};

function teamLines(team: TeamSummary, tasks: readonly string[]): string[] {
  const lead = team.leadUnread > 0 ? ` · ✉ ${team.leadUnread} unread for you` : "";
  return [
    `Team ${team.name} · board ${formatBoard(team.board)}${lead}`,
    ...team.members.map(
      (member) =>
        `  ${member.name}${member.role ? ` (${member.role})` : ""} — ${member.state}${
          member.unread > 0 ? ` · ✉ ${member.unread} unread` : ""
        }`,
    ),
    ...(tasks.length > 0 ? ["  tasks:", ...tasks.map((line) => `  ${line}`)] : []),
  ];
}

/** `/team`: the teams this session takes part in: members and their state, unread mail, the task board. */
export const teamCommand: BuiltinCommand = {
  name: "team",
  description: "Members, inboxes and the task board",
  kind: "instant",
  group: "Agents",
  run: async (_args, context) => {
    const { agents } = context.session;
    if (!agents.enabled) return context.say("Teams need subagents (agent.agents.enabled = true).", "warning");
    const snapshot = await agents.teams();
    if (!snapshot)
      return context.say(
        "This session is in no team yet (the lead creates one with team_create; /teams-config lists every team).",
      );
    const lines: string[] = [];
    for (const summary of snapshot.teams) {
      const shown = (await agents.tasks(summary.name)).map(formatTaskLine);
      lines.push(...teamLines(summary, shown));
    }
    context.say(lines.join("\n"));
  },
};

const TEAMS_CONFIG_USAGE = "Usage: /teams-config [set <team> <member> <model>]";

/** `/teams-config [set <team> <member> <model>]`: each team's config file, or one member's model. */
export const teamsConfigCommand: BuiltinCommand = {
  name: "teams-config",
  description: "Team config files; set a member's model",
  kind: "instant",
  args: "[set <team> <member> <model>]",
  group: "Agents",
  run: async (args, context) => {
    const store = context.session.agents.teamStore(resolveDirs(context.env));
    const [verb, teamName, member, ...rest] = args.split(/\s+/).filter(Boolean);
    if (verb === "set") {
      const model = rest.join(" ");
      if (!teamName || !member || !model) return context.say(TEAMS_CONFIG_USAGE, "warning");
      const config = await store.find(teamName);
      if (!config) return context.say(`No team named ${teamName} (/teams-config lists them).`, "warning");
      const found = config.members.find((entry) => entry.name === member && entry.agentType !== "leader");
      if (!found)
        return context.say(
          `No teammate ${member} in team ${teamName}: ${config.members.map((entry) => entry.name).join(", ")}.`,
          "warning",
        );
      await store.updateMember(teamName, member, { model });
      return context.say(
        `${teamName}/${member} uses ${model} from its next start (${store.paths(teamName).config}).`,
      );
    }
    if (verb) return context.say(TEAMS_CONFIG_USAGE, "warning");
    const names = await store.list();
    if (names.length === 0) return context.say(`No teams (${store.dirs.teams}).`);
    const lines: string[] = [];
    for (const name of names) {
      const config = await store.find(name).catch(() => undefined);
      if (!config) continue;
      const defaults = [
        config.default_model && `default model ${config.default_model}`,
        config.default_role && `default role ${config.default_role}`,
      ].filter(Boolean);
      lines.push(
        `${name}: ${store.paths(name).config}${defaults.length > 0 ? ` (${defaults.join(", ")})` : ""}`,
      );
      for (const entry of config.members) {
        const details = [entry.agentType === "leader" ? "lead" : entry.role, entry.model, entry.state].filter(
          Boolean,
        );
        lines.push(`  ${entry.name}${details.length > 0 ? ` — ${details.join(" · ")}` : ""}`);
      }
    }
    context.say(lines.join("\n"));
  },
};

/** `/bg [stop]`: the turns sent to the background (Ctrl+B); `stop` interrupts the running one. */
export const bgCommand: BuiltinCommand = {
  name: "bg",
  description: "Turns sent to the background (ctrl+b)",
  kind: "instant",
  args: "[stop]",
  group: "Agents",
  run: (args, context) => {
    if (args === "stop")
      return context.say(
        context.background.stop() ? "Stopping the background turn." : "No turn runs in the background.",
      );
    if (args) return context.say("Usage: /bg [stop]", "warning");
    const turns = context.background.list();
    if (turns.length === 0) return context.say("No background turns. Ctrl+B sends the running turn there.");
    const now = Date.now();
    const lines = turns.map((turn) => {
      const state = turn.endedAt === undefined ? "running" : (turn.reason ?? "ended");
      const prompt = turn.prompt.split("\n", 1)[0] ?? "";
      return `#${turn.id} ${state} ${formatElapsed((turn.endedAt ?? now) - turn.startedAt)} — ${prompt}`;
    });
    const running = turns.some((turn) => turn.endedAt === undefined);
    if (running)
      lines.push(
        "Its approvals still reach you; prompts sent now run after it ends (/bg stop interrupts it).",
      );
    context.say(lines.join("\n"));
  },
};
