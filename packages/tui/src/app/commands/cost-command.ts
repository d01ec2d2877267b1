import type { CostFigures, CostReport } from "@nyzhi/core";
import { formatCost, formatTokens } from "../../status/format-usage.js";
import type { BuiltinCommand } from "./command-types.js";

const tokensOf = (figures: CostFigures) =>
  figures.usage.inputTokens +
  figures.usage.outputTokens +
  figures.usage.cacheReadTokens +
  figures.usage.cacheWriteTokens;

/** "8.1k tokens · $0.024" ($0.000 below a tenth of a cent, so every line has both). */
function figuresText(figures: CostFigures): string {
  return `${formatTokens(tokensOf(figures))} tokens · ${formatCost(figures.costUsd) || "$0.000"}`;
}

/** The report as the app shows it: total, each agent (own, and Σ subtree for a parent), each model. */
export function formatCostReport(report: CostReport): string {
  const rows: [string, string, string][] = [["lead", report.lead.model, figuresText(report.lead)]];
  for (const agent of report.agents) {
    const parent = tokensOf(agent.subtree) !== tokensOf(agent.own);
    rows.push([
      `${"  ".repeat(agent.depth)}${agent.nickname} (${agent.role})`,
      agent.model,
      `${figuresText(agent.own)}${parent ? `  Σ subtree ${figuresText(agent.subtree)}` : ""}`,
    ]);
  }
  if (tokensOf(report.teammates) > 0) rows.push(["teammates", "", figuresText(report.teammates)]);
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  const modelWidth = Math.max(...rows.map(([, model]) => model.length));
  return [
    `Session: ${figuresText(report.total)}`,
    "By agent (own requests; Σ subtree adds its descendants):",
    ...rows.map(
      ([name, model, figures]) => `  ${name.padEnd(nameWidth)}  ${model.padEnd(modelWidth)}  ${figures}`,
    ),
    "By model:",
    ...report.models.map((model) => `  ${model.model}  ${figuresText(model)}`),
  ].join("\n");
}

/** `/cost`: the session's tokens and cost, per agent and subtree, and per model. */
export const costCommand: BuiltinCommand = {
  name: "cost",
  description: "Tokens and cost of the session, per agent, subtree and model",
  kind: "instant",
  group: "Session",
  run: (_args, context) => context.say(formatCostReport(context.session.costReport())),
};
