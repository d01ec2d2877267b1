import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import type { AgentEvent } from "../events/agent-events.js";
import { autopilotPrompt, recordPhase } from "./autopilot-prompts.js";
import {
  type AutopilotPhase,
  type AutopilotState,
  isAutopilotActive,
  saveAutopilotState,
} from "./autopilot-state.js";

/**
 * What an autopilot run reports besides its phases' agent events: a phase starting (`phase` is the
 * one that runs now) or the run stopping (`phase` is where it stands; `reason` why it stopped).
 */
export type AutopilotEvent =
  | { type: "autopilot-phase-start"; phase: AutopilotPhase; idea: string }
  | {
      type: "autopilot-stopped";
      phase: AutopilotPhase;
      /** `completed`: every phase ran; otherwise the phase's turn ended this way and stays to run. */
      reason: "completed" | TurnResult["reason"];
      state: AutopilotState;
    };

export interface RunAutopilotOptions {
  projectRoot: string;
  sessionId: string;
  /** One lead turn (the session's `runTurn`, so usage, the journal and saving work as for a prompt). */
  runTurn: (input: TurnInput, options: { signal: AbortSignal }) => AsyncGenerator<AgentEvent, TurnResult>;
  signal: AbortSignal;
}

/**
 * Runs the phases from `state.phase` to `complete`, each a turn of the lead whose answer is stored
 * and fed to the next prompt; the state is saved after each phase. A phase whose turn does not
 * complete (interrupted, `agent.max_steps`, an error, a budget) stays the current phase, so the run
 * can go on later from there. Returns the state as saved.
 */
export async function* runAutopilot(
  state: AutopilotState,
  options: RunAutopilotOptions,
): AsyncGenerator<AgentEvent | AutopilotEvent, AutopilotState> {
  let current: AutopilotState = { ...state, session_id: options.sessionId };
  await saveAutopilotState(options.projectRoot, current);
  while (isAutopilotActive(current)) {
    const phase = current.phase;
    yield { type: "autopilot-phase-start", phase, idea: current.idea };
    const turn = options.runTurn([{ type: "text", text: autopilotPrompt(phase, current) }], {
      signal: options.signal,
    });
    const result = yield* turn;
    if (result.reason !== "completed" || options.signal.aborted) {
      yield {
        type: "autopilot-stopped",
        phase,
        reason: result.reason === "completed" ? "aborted" : result.reason,
        state: current,
      };
      return current;
    }
    current = recordPhase(current, phase, result.text);
    await saveAutopilotState(options.projectRoot, current);
  }
  yield { type: "autopilot-stopped", phase: current.phase, reason: "completed", state: current };
  return current;
}
