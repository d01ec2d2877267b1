import type { PromptFragment } from "../agent-loop/system-prompt.js";
import type { Skill } from "./skill-types.js";

/**
 * The skills index for the system prompt: one line per skill, and when to call `load_skill`.
 * Only names and descriptions go in; the full text costs tokens only when the model asks for it.
 * Blank when there are no skills (the assembler then drops it).
 */
export function skillsIndexFragment(skills: readonly Skill[]): PromptFragment {
  if (skills.length === 0) return { kind: "skills", text: "" };
  const lines = skills.map((skill) =>
    skill.description ? `- **${skill.name}**: ${skill.description}` : `- **${skill.name}**`,
  );
  return {
    kind: "skills",
    text: [
      "# Available Skills",
      "",
      "Skills are instructions for specific kinds of task, written for this project or by the user. " +
        "Before starting a task that matches a skill's description, call `load_skill` with its name " +
        "and follow what it says.",
      "",
      ...lines,
    ].join("\n"),
  };
}
