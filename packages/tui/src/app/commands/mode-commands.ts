import type { SessionMode, ThinkingSetting } from "@nyzhi/core";
import type { BuiltinCommand, CommandContext } from "./command-types.js";

/** How the footer and notices name a session mode. */
export const MODE_LABELS: Readonly<Record<SessionMode, string>> = {
  plan: "plan",
  normal: "normal",
  autoedit: "auto-accept edits",
};

/** The thinking setting as the footer and notices show it: "off", "high", "on (8000 tokens)". */
export function describeThinking(thinking: ThinkingSetting): string {
  if (thinking.level === "on" && thinking.budgetTokens !== undefined)
    return `on (${thinking.budgetTokens} tokens)`;
  return thinking.level;
}

function sayThinking(context: CommandContext, thinking: ThinkingSetting): void {
  context.refresh();
  context.say(`Thinking: ${describeThinking(thinking)} (from the next request on)`);
}

/** `/think [on|off|budget N]`: toggles extended thinking, or sets its token budget. */
export const thinkCommand: BuiltinCommand = {
  name: "think",
  description: "Extended thinking on or off, or its token budget",
  kind: "instant",
  args: "[on|off|budget N]",
  group: "Agent",
  run: (args, context) => {
    const modes = context.session.modes;
    const [verb = "", value] = args.split(/\s+/);
    if (verb === "") return sayThinking(context, modes.toggleThinking());
    if (verb === "on" || verb === "off") return sayThinking(context, modes.toggleThinking(verb === "on"));
    if (verb === "budget") {
      const tokens = Number(value);
      if (!Number.isInteger(tokens) || tokens < 1024) {
        context.say("Usage: /think budget N — N is a whole number of tokens, at least 1024.", "warning");
        return;
      }
      return sayThinking(context, modes.setThinkingBudget(tokens));
    }
    context.say("Usage: /think [on|off|budget N]", "warning");
  },
};

/** `/thinking [level]`: the current model's levels in a picker, or set one by name. */
export const thinkingCommand: BuiltinCommand = {
  name: "thinking",
  description: "Pick the current model's thinking level",
  kind: "instant",
  args: "[level]",
  group: "Agent",
  run: (args, context) => {
    const modes = context.session.modes;
    const levels = modes.thinkingLevels();
    const model = context.session.model;
    if (levels.length === 0) {
      context.say(`${model.providerId}/${model.modelId}: this model has no thinking levels.`, "warning");
      return;
    }
    if (args) {
      const level = levels.find((choice) => choice.level === args.toLowerCase());
      if (!level) {
        context.say(
          `${args} is not a thinking level of ${model.modelId}: ${levels.map((choice) => choice.level).join(", ")}`,
          "warning",
        );
        return;
      }
      return sayThinking(context, modes.setThinkingLevel(level.level));
    }
    context.openPicker({
      title: `Thinking (now ${describeThinking(modes.thinking)})`,
      items: levels.map((choice) => ({
        label: choice.level,
        description: choice.description,
        value: choice.level,
      })),
      onPick: (level) => sayThinking(context, modes.setThinkingLevel(level)),
    });
  },
};

/** `/plan [on|off]`: the plan the lead wrote in plan mode, or plan mode on/off (Shift+Tab cycles it). */
export const planCommand: BuiltinCommand = {
  name: "plan",
  description: "Show the plan, or plan mode on/off (Shift+Tab cycles plan → normal → auto-accept edits)",
  kind: "instant",
  args: "[on|off]",
  group: "Agent",
  run: (args, context) => {
    const modes = context.session.modes;
    if (args === "") {
      context.say(
        modes.plan
          ? `Plan (mode: ${MODE_LABELS[modes.mode]}):\n${modes.plan}`
          : `No plan yet (mode: ${MODE_LABELS[modes.mode]}). Shift+Tab on an empty input or /plan on enters plan mode.`,
      );
      return;
    }
    if (args !== "on" && args !== "off") {
      context.say("Usage: /plan [on|off]", "warning");
      return;
    }
    const change = modes.setMode(args === "on" ? "plan" : "normal");
    context.refresh();
    context.say(`Mode: ${MODE_LABELS[change.mode]}`);
    if (change.plan) context.offerPlan(change.plan);
  },
};
