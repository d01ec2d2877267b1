import { redactKnownSecrets } from "@nyzhi/config";
import type { AssistantContentPart, ModelMessage, Usage } from "@nyzhi/provider";
import { type BudgetLimits, describeBudget } from "../budgets/budget-types.js";
import type { SavedAgentThread, SessionRecord } from "./session-types.js";

const fence = (text: string, language = "") => {
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}${language}\n${text}\n${ticks}`;
};

function renderAssistant(content: string | AssistantContentPart[]): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (part.type === "text") return part.text;
      if (part.type === "reasoning")
        return `<details><summary>Thinking</summary>\n\n${part.text}\n\n</details>`;
      return `### \`${part.name}\`\n\n${fence(JSON.stringify(part.input, null, 2), "json")}`;
    })
    .join("\n\n");
}

function renderMessages(messages: readonly ModelMessage[]): string[] {
  const sections: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content
              .map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`))
              .join("\n\n");
      sections.push(`## You\n\n${text}`);
    } else if (message.role === "assistant") {
      sections.push(`## Assistant\n\n${renderAssistant(message.content)}`);
    } else {
      for (const result of message.content) {
        const label = result.isError ? "Tool Error" : "Tool Response";
        sections.push(`### ${label} (\`${result.toolName}\`)\n\n${fence(result.output)}`);
      }
    }
  }
  return sections;
}

const tokens = (usage: Usage) => `${usage.inputTokens} input / ${usage.outputTokens} output`;

/**
 * A subagent's usage line: its own tokens and cost, then its subtree's when its own subagents spent
 * any. Empty for sessions saved before usage was kept.
 */
function renderAgentUsage(agent: SavedAgentThread): string[] {
  if (!agent.usage) return [];
  const ownCost = agent.costUsd ?? 0;
  let line = `tokens: ${tokens(agent.usage)}, cost: $${ownCost.toFixed(4)}`;
  const subtree = agent.subtreeUsage;
  const subtreeCost = agent.subtreeCostUsd ?? 0;
  if (
    subtree &&
    (subtree.inputTokens !== agent.usage.inputTokens ||
      subtree.outputTokens !== agent.usage.outputTokens ||
      Math.abs(subtreeCost - ownCost) > 1e-9)
  ) {
    line += ` (with its subagents: ${tokens(subtree)}, cost: $${subtreeCost.toFixed(4)})`;
  }
  return [line];
}

/**
 * A session as markdown: front matter (date, provider, model, tokens, the code index's embedding
 * tokens, cost), then the thread, then each subagent's thread under its own heading, with its
 * usage under the heading.
 */
export function exportSessionMarkdown(record: SessionRecord): string {
  const { meta } = record;
  const front = [
    "---",
    `title: ${JSON.stringify(meta.title)}`,
    `session: ${meta.id}`,
    `date: ${meta.updatedAt.replace("T", " ").slice(0, 19)} UTC`,
    `provider: ${meta.provider}`,
    `model: ${meta.model}`,
  ];
  if (meta.usage) front.push(`tokens: ${tokens(meta.usage)}`);
  if (meta.embeddingTokens) front.push(`embedding tokens: ${meta.embeddingTokens}`);
  if (meta.costUsd !== undefined) front.push(`cost: $${meta.costUsd.toFixed(4)}`);
  front.push("---");
  const sections = [front.join("\n"), `# ${meta.title}`, ...renderMessages(record.messages)];
  for (const agent of Object.values(record.agents ?? {})) {
    sections.push(
      `# Subagent ${agent.nickname} (${agent.role}, depth ${agent.depth}, ${agent.status})`,
      ...renderAgentUsage(agent),
      ...(agent.budget
        ? [`budget: ${describeBudget(agent.budget)}, left: ${describeLeft(agent.budget.left)}`]
        : []),
      ...(agent.worktree
        ? [`worktree: branch \`${agent.worktree.branch}\` (not merged), ${agent.worktree.diffStat}`]
        : []),
      ...renderMessages(agent.messages).map((section) => section.replace(/^(#+)/, "$1#")),
    );
  }
  return redactKnownSecrets(`${sections.join("\n\n")}\n`);
}

/** What is left of a budget: `tokens 0, $0.0100`. */
function describeLeft(left: BudgetLimits): string {
  const parts: string[] = [];
  if (left.tokens !== undefined) parts.push(`tokens ${left.tokens.toLocaleString("en-US")}`);
  if (left.usd !== undefined) parts.push(`$${left.usd.toFixed(4)}`);
  if (left.minutes !== undefined) parts.push(`${left.minutes.toFixed(1)} min`);
  return parts.join(", ");
}

/** A session as pretty JSON (the saved record). Known credentials are `[redacted]` in both formats. */
export function exportSessionJson(record: SessionRecord): string {
  return redactKnownSecrets(`${JSON.stringify(record, null, 2)}\n`);
}
