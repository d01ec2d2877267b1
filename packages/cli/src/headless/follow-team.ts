import type { AgentEvent, AgentRuntime, TurnResult } from "@nyzhi/core";
import { addUsage } from "@nyzhi/provider";

/** The lead's input when it wakes for team mail; the messages themselves follow it. */
export const TEAM_WAKE_PROMPT =
  "New messages from your team arrived (below). Act on them: answer, assign or review tasks, or finish.";

/**
 * After the lead's turn in `nyz exec --team-name`: while its teammates in this process still work,
 * it keeps reading its inbox — each batch of mail starts another lead turn — until the team is
 * quiet (every teammate idle or ended, nothing unread) or `waitMs` passes. Returns the last turn's
 * result with the steps, usage and cost of all of them.
 */
export async function followTeam(
  runtime: AgentRuntime,
  first: TurnResult,
  options: { waitMs: number; signal: AbortSignal; emit: (event: AgentEvent) => void },
): Promise<TurnResult> {
  const teams = runtime.teams;
  if (!teams) return first;
  const deadline = Date.now() + options.waitMs;
  let total = first;
  for (;;) {
    const state = await teams.waitForLead({
      timeoutMs: Math.max(0, deadline - Date.now()),
      signal: options.signal,
    });
    if (options.signal.aborted) return { ...total, reason: "aborted" };
    if (state === "quiet") return total;
    if (state === "timeout") {
      const busy = teams
        .teammates()
        .filter((member) => member.state === "working")
        .map((member) => member.name);
      options.emit({
        type: "error",
        agent: runtime.context.agent,
        message: `Stopped following the team after ${options.waitMs} ms${busy.length ? `; still working: ${busy.join(", ")}` : ""} (raise --team-wait-ms).`,
        code: "team_wait_timeout",
        fatal: false,
      });
      return total;
    }
    const turn = runtime.runTurn(TEAM_WAKE_PROMPT, { signal: options.signal });
    let next = await turn.next();
    while (!next.done) {
      options.emit(next.value);
      next = await turn.next();
    }
    const result = next.value;
    total = {
      ...result,
      steps: total.steps + result.steps,
      usage: addUsage(total.usage, result.usage),
      costUsd: total.costUsd + result.costUsd,
    };
    if (result.reason !== "completed") return total;
  }
}
