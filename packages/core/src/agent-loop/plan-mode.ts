/** What the model reads in plan mode (appended to the system prompt of each request). */
export const PLAN_MODE_INSTRUCTIONS = `# PLAN MODE (READ-ONLY)
You are in plan mode. Plan; do not act. You may read, search and ask, but you must not edit files, run commands that change anything, or make any other change: only read-only tools are offered, and any other call is refused.
Study what the task needs, then answer with a concrete, numbered plan: the files to change and how, the order of the steps, the risks, and how the result will be checked. The user reviews the plan and switches to act mode (Shift+Tab) to have it carried out.`;

/** What the model reads when it is asked to carry out the plan it wrote in plan mode. */
export const EXECUTING_PLAN_INSTRUCTIONS =
  "# EXECUTING PLAN\nCarry out the plan below step by step, now with every tool. Keep the todo list current as you go.";

/** The result a mutating call gets in plan mode. */
export function blockedInPlanMode(tool: string): string {
  return `Tool \`${tool}\` is blocked in plan mode: plan mode is read-only. Finish the plan; the user switches to act mode (Shift+Tab) to make changes.`;
}
