import { addUsage, emptyUsage } from "@nyzhi/provider";
import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import { autopilotPrompt, recordPhase } from "./autopilot-prompts.js";
import {
  type AutopilotState,
  type AutopilotWorkingPhase,
  isAutopilotActive,
  loadAutopilotState,
  saveAutopilotState,
} from "./autopilot-state.js";

export interface RunAutopilotOptions {
  projectRoot: string;
  sessionId: string;
  /** The lead, whose events the `autopilot-phase` events are tagged with. */
  lead: AgentTag;
  /** One lead turn (the session's `runTurn`, so usage, the journal and saving work as for a prompt). */
  runTurn: (input: TurnInput, options: { signal: AbortSignal }) => AsyncGenerator<AgentEvent, TurnResult>;
  signal: AbortSignal;
  /** The person cancelled the run (`/stop`, `/autopilot cancel` in this process): no next phase starts. */
  cancelled?: () => boolean;
}

/** The phases' turns summed: steps, usage and cost; `reason` and `text` of the run as a whole. */
export interface AutopilotRunResult {
  state: AutopilotState;
  turns: Omit<TurnResult, "text" | "reason">;
  /** `completed` once every phase ran; else how the phase that stopped it ended. */
  reason: TurnResult["reason"];
  /** The phase the run was cancelled in (its state is saved as `cancelled`). */
  cancelledIn?: AutopilotWorkingPhase;
}

/** Whether the saved state says this run was cancelled (by `/autopilot cancel` in another process). */
async function cancelledOnDisk(projectRoot: string, idea: string): Promise<boolean> {
  const saved = await loadAutopilotState(projectRoot).catch(() => undefined);
  return saved?.phase === "cancelled" && saved.idea === idea;
}

/**
 * Runs the phases from `state.phase` to `complete`, each a turn of the lead whose answer is stored
 * and fed to the next prompt; the state is saved after each phase. A phase whose turn does not
 * complete (interrupted, `agent.max_steps`, an error, a budget) stays the current phase, so the run
 * can go on later from there.
 */
export async function* runAutopilot(
  state: AutopilotState,
  options: RunAutopilotOptions,
): AsyncGenerator<AgentEvent, AutopilotRunResult> {
  let current: AutopilotState = { ...state, session_id: options.sessionId };
  const turns = { steps: 0, usage: emptyUsage(), costUsd: 0 };
  const phaseEvent = (status: "started" | "stopped", reason?: TurnResult["reason"]): AgentEvent => ({
    type: "autopilot-phase",
    agent: options.lead,
    phase: current.phase,
    status,
    idea: current.idea,
    ...(reason ? { reason } : {}),
  });
  // A cancel wins over the phase's own save: the run checks it (here, and on disk for another
  // process's `/autopilot cancel`) before every save, and itself saves `cancelled` as its last write.
  const cancelled = async () =>
    options.cancelled?.() === true || (await cancelledOnDisk(options.projectRoot, current.idea));
  await saveAutopilotState(options.projectRoot, current);
  while (isAutopilotActive(current)) {
    const phase = current.phase;
    yield phaseEvent("started");
    const result = yield* options.runTurn([{ type: "text", text: autopilotPrompt(phase, current) }], {
      signal: options.signal,
    });
    turns.steps += result.steps;
    turns.usage = addUsage(turns.usage, result.usage);
    turns.costUsd += result.costUsd;
    if (await cancelled()) {
      yield phaseEvent("stopped", "aborted");
      current = { ...current, phase: "cancelled" };
      await saveAutopilotState(options.projectRoot, current);
      return { state: current, turns, reason: "aborted", cancelledIn: phase };
    }
    if (result.reason !== "completed" || options.signal.aborted) {
      const reason = result.reason === "completed" ? "aborted" : result.reason;
      yield phaseEvent("stopped", reason);
      return { state: current, turns, reason };
    }
    current = recordPhase(current, phase, result.text);
    await saveAutopilotState(options.projectRoot, current);
  }
  yield phaseEvent("stopped", "completed");
  return { state: current, turns, reason: "completed" };
}
