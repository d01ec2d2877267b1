import type { SystemFragment } from "@nyzhi/provider";

/**
 * The kinds of model-visible context, in the order they appear in the system prompt. Stable ones
 * come first so the vendor's prompt cache can reuse the prefix across turns and agents.
 */
export const PROMPT_FRAGMENT_ORDER = [
  "persona",
  "environment",
  "tools-guidance",
  "mcp",
  "rules",
  "custom-instructions",
  "skills",
  "memory",
  "briefing",
  "wisdom",
  "mode",
  "codebase-context",
] as const;

export type PromptFragmentKind = (typeof PROMPT_FRAGMENT_ORDER)[number];

/** The last kind that is stable within a session; the cache marker goes after it. */
const LAST_STABLE: PromptFragmentKind = "custom-instructions";

export interface PromptFragment {
  kind: PromptFragmentKind;
  /** Markdown. Blank fragments are dropped. */
  text: string;
}

/**
 * The one assembler of the system prompt: orders fragments by kind (keeping insertion order within
 * a kind), drops blank ones, and marks the end of the stable prefix for prompt caching.
 */
export function assembleSystemPrompt(fragments: readonly PromptFragment[]): SystemFragment[] {
  const ordered = fragments
    .map((fragment, index) => ({ fragment, index, rank: PROMPT_FRAGMENT_ORDER.indexOf(fragment.kind) }))
    .filter(({ fragment }) => fragment.text.trim() !== "")
    .sort((left, right) => left.rank - right.rank || left.index - right.index);
  const stableRank = PROMPT_FRAGMENT_ORDER.indexOf(LAST_STABLE);
  const lastStableIndex = ordered.reduce((last, item, index) => (item.rank <= stableRank ? index : last), -1);
  return ordered.map(({ fragment }, index) => {
    const system: SystemFragment = { text: fragment.text.trim() };
    if (index === lastStableIndex) system.cache = true;
    return system;
  });
}

export interface EnvironmentFacts {
  cwd: string;
  projectRoot?: string;
  platform?: string;
  /** `YYYY-MM-DD`. */
  date?: string;
  gitBranch?: string;
}

export function environmentFragment(facts: EnvironmentFacts): PromptFragment {
  const lines = ["# Environment", `- Working directory: ${facts.cwd}`];
  if (facts.projectRoot) lines.push(`- Project root: ${facts.projectRoot}`);
  lines.push(`- Platform: ${facts.platform ?? process.platform}`);
  lines.push(`- Date: ${facts.date ?? new Date().toISOString().slice(0, 10)}`);
  if (facts.gitBranch) lines.push(`- Git branch: ${facts.gitBranch}`);
  return { kind: "environment", text: lines.join("\n") };
}

export function rulesFragment(rules: string | undefined): PromptFragment {
  if (!rules?.trim()) return { kind: "rules", text: "" };
  return {
    kind: "rules",
    text: `# Project Rules\n\nThe project's own instructions. Follow them; they override general guidance.\n\n${rules.trim()}`,
  };
}

export function customInstructionsFragment(text: string | undefined): PromptFragment {
  return { kind: "custom-instructions", text: text?.trim() ? `# Custom Instructions\n\n${text.trim()}` : "" };
}
