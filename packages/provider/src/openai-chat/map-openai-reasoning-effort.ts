/** OpenAI's reasoning efforts (Chat `reasoning_effort`, Responses `reasoning.effort`). */
export type OpenAIReasoningEffort = "minimal" | "low" | "medium" | "high" | "xhigh";

/** Our effort levels onto OpenAI's: `max` is `xhigh`; anything unknown (or none) is `high`. */
export function mapOpenAIReasoningEffort(effort: string | undefined): OpenAIReasoningEffort {
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
      return "high";
  }
}
