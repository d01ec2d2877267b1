/** Lines the wisdom text must exceed to be worth a child's attention (a bare header is not). */
const MIN_WISDOM_LINES = 3;

export interface RenderChildSystemPromptInput {
  /** The role's prompt (or the generic sub-agent prompt). */
  rolePrompt: string;
  /** `buildBriefing`'s output; "" adds nothing. */
  briefing: string;
  /** `latestWisdom`'s output; added only when it has more than 3 lines. */
  wisdom?: string | undefined;
}

/** The child's system prompt: role prompt, then the parent's briefing, then notepad wisdom. */
export function renderChildSystemPrompt(input: RenderChildSystemPromptInput): string {
  let prompt = input.rolePrompt;
  const briefing = input.briefing.trim();
  if (briefing !== "") prompt += `\n\n# Context Briefing (from parent)\n${briefing}`;
  const wisdom = input.wisdom?.trim() ?? "";
  if (wisdom.split("\n").length > MIN_WISDOM_LINES) {
    prompt += `\n\n# Accumulated Wisdom (from prior work)\n${wisdom}`;
  }
  return prompt;
}
