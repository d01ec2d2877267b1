import type { ThinkingOptions } from "../model/model-request.js";
import type { ThinkingSupport } from "./model-info.js";

/** One entry of a model's thinking picker: the level's name and what it means. */
export interface ThinkingLevelChoice {
  level: string;
  description: string;
}

const EFFORT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  off: "No extended thinking",
  on: "Thinking on",
  minimal: "Minimal reasoning",
  low: "Quick reasoning",
  medium: "Balanced",
  high: "Deep reasoning",
  xhigh: "Maximum reasoning",
  max: "Maximum reasoning",
};

/**
 * The levels a model offers in the UI (spec edges §3.1 `user_facing_levels`): "off" first, then
 * the model's levels; a budget model gets low/medium/high as far as its maximum allows, then max;
 * Gemini's levels have no "off". A model without thinking support offers none.
 */
export function thinkingLevelsOf(support: ThinkingSupport | undefined): ThinkingLevelChoice[] {
  if (!support) return [];
  const describe = (level: string, isDefault: boolean): ThinkingLevelChoice => ({
    level,
    description: `${EFFORT_DESCRIPTIONS[level] ?? level}${isDefault ? " (default)" : ""}`,
  });
  switch (support.kind) {
    case "effort":
    case "adaptive":
      return [
        describe("off", false),
        ...support.levels.map((level) => describe(level, level === support.default)),
      ];
    case "levels":
      return support.levels.map((level) => describe(level, level === support.default));
    case "budget": {
      const levels: ThinkingLevelChoice[] = [describe("off", false)];
      for (const [level, tokens] of BUDGET_STEPS) {
        if (support.max >= tokens) levels.push({ level, description: `${tokens / 1024}K token budget` });
      }
      levels.push({ level: "max", description: `${Math.round(support.max / 1024)}K token budget` });
      return levels;
    }
  }
}

const BUDGET_STEPS: ReadonlyArray<readonly [string, number]> = [
  ["low", 4096],
  ["medium", 8192],
  ["high", 16384],
];

/** Token budgets of the named levels (spec edges §3.8). */
const LEVEL_BUDGETS: Readonly<Record<string, number>> = {
  low: 4096,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
  max: 32768,
};

/**
 * The request options of a thinking level (spec edges §3.8): the level is the effort, and the
 * named levels carry a token budget for the vendors that take one; any other level (`on`,
 * `minimal` …) keeps `budgetTokens` as given. "off" is no thinking.
 */
export function thinkingForLevel(level: string, budgetTokens?: number): ThinkingOptions | undefined {
  const name = level.trim().toLowerCase();
  if (name === "off" || name === "") return undefined;
  const budget = LEVEL_BUDGETS[name] ?? budgetTokens;
  return budget === undefined ? { effort: name } : { effort: name, budgetTokens: budget };
}
