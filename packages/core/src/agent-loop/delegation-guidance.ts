import type { PromptFragment } from "./system-prompt.js";

/**
 * The lead's delegation guidance and seed 003's three playbooks (new feature, complex bug fix,
 * refactoring). Only the lead gets it, and only while the subagent system is on. The playbooks are
 * guidance: the model composes its own sequence when the task calls for it.
 */
export const DELEGATION_GUIDANCE = `# Delegating to subagents
You can hand work to subagents: \`task\` runs one specialist on a self-contained description and returns its answer as the tool result; \`spawn_agent\` starts one in the background (it is briefed on your context) and \`wait\` collects it.

Delegate when a task is complex and multi-step, can be done in isolation, needs focused reasoning, or is safer sandboxed in its own context. Do not delegate trivial work (a few tool calls), work where you need to see the intermediate steps, or splits that only add latency. A \`task\` subagent sees nothing but its description: include the goal, the files and facts it needs, constraints and the expected output.

Whenever steps are independent -- tool calls or delegations -- issue them in parallel in the same response (for example \`tester\` writing tests while \`reviewer\` reviews the same change). If a subagent fails, its error comes back as the result and nothing is retried: delegate elsewhere, do it yourself, or ask the user.

## Playbooks (guidance, not rules; adapt them to the request)
- New feature: \`architect\` designs -> \`reviewer\` validates the design (optional) -> you implement -> \`tester\` tests -> \`reviewer\` does the final review.
- Complex bug fix: \`debugger\` finds the root cause -> you apply the fix -> \`tester\` adds regression tests.
- Refactoring: \`code-analyzer\` identifies the problems -> \`architect\` proposes the structure -> \`file-organizer\` restructures -> you update the logic -> \`tester\` verifies.
For questions about how the existing codebase is built, ask \`architecture-expert\`; for open-ended research across the codebase, \`general-purpose\`.`;

export function delegationGuidanceFragment(): PromptFragment {
  return { kind: "tools-guidance", text: DELEGATION_GUIDANCE };
}
