import { addUsage } from "@nyzhi/provider";
import type { TurnResult } from "../agent-loop/run-turn.js";
import type { AgentEvent } from "../events/agent-events.js";
import type { AgentRuntime } from "./create-agent-runtime.js";

/** The lead's input when it wakes for team mail; the messages themselves follow it. */
export const TEAM_WAKE_PROMPT =
  "New messages from your team arrived (below). Act on them: answer, assign or review tasks, or finish.";

export interface FollowTeamOptions {
  /** How long to keep following teammates that still work, ms. */
  waitMs: number;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** Appended to the timeout error: what the user can do about it (e.g. "raise --team-wait-ms"). */
  timeoutHint?: string;
}

/**
 * For a host that runs the lead headless and ends the session after its turn: when the lead is in
 * a team — given by the host (`--team-name`) or created or joined during the turn — it keeps
 * reading its inbox, each batch of mail starting another lead turn, until the team is quiet
 * (every local teammate idle or ended, nothing unread) or `waitMs` passes. Without a team it
 * returns `first` at once. Returns the last turn's result with the steps, usage and cost of all.
 */
export async function followTeam(
  runtime: Pick<AgentRuntime, "teams" | "context" | "runTurn">,
  first: TurnResult,
  options: FollowTeamOptions,
): Promise<TurnResult> {
  const teams = runtime.teams;
  if (!teams?.leadInTeam() || first.reason !== "completed") return first;
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
      const hint = options.timeoutHint ? ` (${options.timeoutHint})` : "";
      options.emit({
        type: "error",
        agent: runtime.context.agent,
        message: `Stopped following the team after ${options.waitMs} ms${busy.length ? `; still working: ${busy.join(", ")}` : ""}${hint}.`,
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

/**
 * For an interactive host between turns: whether the lead is in a team and has unread mail, so
 * the host starts a turn with `TEAM_WAKE_PROMPT` (the lead reads its inbox when it is idle and
 * mail arrives, as it does headless through `followTeam`). False without a team.
 */
export async function leadHasTeamMail(runtime: Pick<AgentRuntime, "teams">): Promise<boolean> {
  const teams = runtime.teams;
  if (!teams?.leadInTeam()) return false;
  return (await teams.leadUnread().catch(() => 0)) > 0;
}
