import { relative } from "node:path";
import { formatTokens } from "../../status/format-usage.js";
import type { BuiltinCommand, CommandContext } from "./command-types.js";
import { describeThinking, MODE_LABELS } from "./mode-commands.js";

const shown = (context: CommandContext) => (path: string) =>
  relative(context.session.projectRoot, path) || path;

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

/** `/status`: where the session stands (the session's `workflows.status`). */
export const statusCommand: BuiltinCommand = {
  name: "status",
  description: "Provider, model, trust, mode, thinking, config, rules, duration, tokens and cost",
  kind: "instant",
  group: "View",
  run: async (_args, context) => {
    const status = await context.session.workflows.status();
    const { usage } = status;
    context.say(
      [
        `Session ${status.sessionId.slice(0, 8)} · ${formatDuration(status.durationMs)}`,
        `  provider   ${status.providerId}`,
        `  model      ${status.modelId}`,
        `  trust      ${status.trustMode}`,
        `  mode       ${MODE_LABELS[status.mode as keyof typeof MODE_LABELS] ?? status.mode}`,
        `  thinking   ${describeThinking(status.thinking)}`,
        `  config     ${status.configFiles.join(", ") || "defaults (no config file)"}`,
        `  rules      ${status.rulesFiles.join(", ") || "none (AGENTS.md, CLAUDE.md … give the model project rules)"}`,
        `  tokens     ${formatTokens(usage.inputTokens)} in · ${formatTokens(usage.cacheReadTokens)} cached read · ${formatTokens(usage.cacheWriteTokens)} cached write · ${formatTokens(usage.outputTokens)} out`,
        `  cost       $${status.costUsd.toFixed(4)}`,
      ].join("\n"),
    );
  },
};

/** `/retry`: sends the last prompt again, shown as `[retry] …`. */
export const retryCommand: BuiltinCommand = {
  name: "retry",
  description: "Send the last prompt again",
  kind: "prompt",
  group: "Session",
  run: (_args, context) => {
    const prompt = context.session.workflows.lastPrompt();
    if (prompt === undefined) return context.say("Nothing to retry: no prompt was sent yet.", "warning");
    context.send(prompt, { display: `[retry] ${prompt}` });
  },
};

/** `/handoff`: writes `.nyzhi/handoff-<time>.md` for the next session (or person). */
export const handoffCommand: BuiltinCommand = {
  name: "handoff",
  description: "Write .nyzhi/handoff-<time>.md: project, branch, model, todos, last messages, open questions",
  kind: "instant",
  group: "Session",
  run: async (_args, context) => {
    const path = await context.session.workflows.handoff();
    context.say(`Handoff written: ${shown(context)(path)} (/resume-work in a new session picks it up).`);
  },
};

/** `/resume-work`: starts from the newest handoff note, its todos restored. */
export const resumeWorkCommand: BuiltinCommand = {
  name: "resume-work",
  description: "Start from the newest .nyzhi/handoff-*.md (its todos restored)",
  kind: "prompt",
  group: "Session",
  run: async (_args, context) => {
    const resumed = await context.session.workflows.resumeWork();
    context.say(
      `Resuming from ${shown(context)(resumed.path)}: ${resumed.todos} todo(s) restored (/todo shows them).`,
    );
    context.send(resumed.prompt, { display: `/resume-work (${shown(context)(resumed.path)})` });
  },
};

/** `/map`: four read-only subagents map the codebase into `.nyzhi/map/`, in parallel. */
export const mapCommand: BuiltinCommand = {
  name: "map",
  description: "Subagents map the codebase into .nyzhi/map/ (stack, architecture, conventions, concerns)",
  kind: "prompt",
  group: "Project",
  run: async (_args, context) => {
    if (!context.session.agents.enabled)
      return context.say("/map needs subagents (agent.agents.enabled = true).", "warning");
    context.say("Mapping the codebase: four subagents in parallel (ctrl+t shows them)…");
    const results = await context.session.workflows.map({
      onStarted: (file, nickname) => context.say(`  ${nickname} → .nyzhi/map/${file}`),
    });
    context.say(
      [
        "Codebase map written:",
        ...results.map(
          (result) =>
            `  ${shown(context)(result.path)}${result.ok ? "" : ` (${result.agent} did not finish)`}`,
        ),
      ].join("\n"),
      results.every((result) => result.ok) ? "info" : "warning",
    );
  },
};

/** `/learn [name]`: the skills, or a skill saved from this session. */
export const learnCommand: BuiltinCommand = {
  name: "learn",
  description: "List skills, or save one from this session as .nyzhi/skills/<name>.md",
  kind: "instant",
  args: "[name]",
  group: "Project",
  run: async (args, context) => {
    if (args) {
      const path = await context.session.workflows.learn(args);
      return context.say(
        `Saved the skill ${args}: ${shown(context)(path)} — edit it; /${args} runs it from the next session.`,
      );
    }
    const skills = (await context.session.commands()).filter((command) => command.source === "skill");
    context.say(
      [
        skills.length === 0 ? "No skills yet." : "Skills:",
        ...skills.map((skill) => `  /${skill.name} — ${skill.description}`),
        "/learn <name> saves one from this session (.nyzhi/skills/<name>.md).",
      ].join("\n"),
    );
  },
};

/** `/commands`: the custom commands, and how to add one. */
export const commandsCommand: BuiltinCommand = {
  name: "commands",
  description: "Custom commands, with how to add one",
  kind: "instant",
  group: "Project",
  run: async (_args, context) => {
    const custom = (await context.session.commands()).filter((command) => command.source !== "skill");
    context.say(
      [
        custom.length === 0 ? "No custom commands." : "Custom commands:",
        ...custom.map(
          (command) =>
            `  /${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ""} — ${command.description} (${command.source})`,
        ),
        "Add one: write .nyzhi/commands/<name>.md (a first line `# description`, then the prompt; $ARGUMENTS is what follows /<name>), or [[agent.commands]] in config.toml.",
      ].join("\n"),
    );
  },
};

function promptCommand(
  name: string,
  description: string,
  args: string | undefined,
  group: string,
  prompt: (args: string, context: CommandContext) => string | undefined,
): BuiltinCommand {
  return {
    name,
    description,
    kind: "prompt",
    args,
    group,
    run: (text, context) => {
      const built = prompt(text, context);
      if (built === undefined) return context.say(`Usage: /${name}${args ? ` ${args}` : ""}`, "warning");
      context.send(built, { display: `/${name}${text ? ` ${text}` : ""}` });
    },
  };
}

/** `/quick <task>`: a small task done at once, checked, committed. */
export const quickCommand = promptCommand(
  "quick",
  "Do a small task now: smallest change, checks, atomic commits",
  "<task>",
  "Agent",
  (task, context) => (task ? context.session.workflows.prompts.quick(task) : undefined),
);

/** `/refactor <target>`: the seven-step refactor workflow. */
export const refactorCommand = promptCommand(
  "refactor",
  "Refactor a target in seven steps, behaviour kept, tests first",
  "<target>",
  "Agent",
  (target, context) => (target ? context.session.workflows.prompts.refactor(target) : undefined),
);

/** `/init-deep`: the model writes AGENTS.md files per folder. */
export const initDeepCommand = promptCommand(
  "init-deep",
  "The model writes AGENTS.md files per folder",
  undefined,
  "Project",
  (_args, context) => context.session.workflows.prompts.initDeep(),
);

/** `/verify`: the detected (or configured) checks, run by the lead with the verify tool, and a report. */
export const verifyCommand: BuiltinCommand = {
  name: "verify",
  description: "Run the detected build/test/lint checks and report",
  kind: "prompt",
  group: "Project",
  run: async (_args, context) => {
    const checks = await context.session.workflows.checks();
    context.say(
      checks.length > 0
        ? `Checks: ${checks.map((check) => `${check.kind} \`${check.command}\``).join(" · ")}`
        : "No checks detected (Cargo.toml, package.json scripts, go.mod, pyproject.toml); [[agent.verify.checks]] in config sets them.",
      checks.length > 0 ? "info" : "warning",
    );
    context.send(context.session.workflows.prompts.verify(checks), { display: "/verify" });
  },
};
