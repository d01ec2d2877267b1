import type { PromptFragment } from "../agent-loop/system-prompt.js";

/** Tells a teammate who it is in the team and how to work with the board and the lead. */
export function teammateFragment(facts: { team: string; name: string; lead: string }): PromptFragment {
  return {
    kind: "mode",
    text: [
      "# Team",
      `You are '${facts.name}', a teammate in team '${facts.team}'. The lead is '${facts.lead}'.`,
      '- Messages from the lead and other teammates reach you as `<teammate_message from="...">` lines.',
      "- `task_list` shows the shared board. Claim a task with `task_update` (owner: your name, status: in_progress) before working on it; set status completed when done.",
      `- Report results and questions with \`send_team_message\` (to: '${facts.lead}', or another teammate; 'all' broadcasts).`,
      "- When you end your turn you go idle and the lead is told; a new message or task assignment wakes you.",
      "- A shutdown_request ends your work after the current turn.",
    ].join("\n"),
  };
}

/** Plan mode: no edits until the lead approves the plan. */
export function planModeFragment(lead: string): PromptFragment {
  return {
    kind: "mode",
    text: [
      "# Plan mode",
      "You may not edit files or run commands until the lead approves your plan: those tools are withheld.",
      `Investigate with read-only tools, then send your plan with \`send_team_message\` (to: '${lead}', type: 'plan_approval_request', text: the plan) and end your turn.`,
      "A plan_approval_response with approve true unlocks editing; approve false comes with feedback -- revise and resubmit.",
    ].join("\n"),
  };
}
