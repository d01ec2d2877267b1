/** OpenAI's reasoning efforts (Chat `reasoning_effort`, Responses `reasoning.effort`). */
export type OpenAIReasoningEffort = "minimal" | "low" | "medium" | "high" | "xhigh";

/**
 * Our effort levels onto OpenAI's: `max` is `xhigh`. OpenAI takes no token budget, so plain thinking
 * (`on`, or none) with one (`/think budget N`) picks the effort nearest to it: up to 4096 tokens
 * `low`, up to 8192 `medium`, more `high`; anything else unknown is `high`.
 */
export function mapOpenAIReasoningEffort(
  effort: string | undefined,
  budgetTokens?: number,
): OpenAIReasoningEffort {
  switch (effort) {
    case "minimal":
    case "low":
    case "medium":
    case "high":
    case "xhigh":
      return effort;
    case "max":
      return "xhigh";
    default:
      if (budgetTokens === undefined || (effort !== undefined && effort !== "on")) return "high";
      return budgetTokens <= 4096 ? "low" : budgetTokens <= 8192 ? "medium" : "high";
  }
}
