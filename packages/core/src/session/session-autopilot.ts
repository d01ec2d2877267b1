import { emptyUsage } from "@nyzhi/provider";
import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import {
  type AutopilotState,
  clearAutopilotState,
  describeAutopilot,
  isAutopilotActive,
  loadAutopilotState,
  saveAutopilotState,
} from "../autopilot/autopilot-state.js";
import { type AutopilotRunResult, runAutopilot } from "../autopilot/run-autopilot.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";

/** `/autopilot …` as typed: start a run, show it, go on with it, cancel it, or delete its state. */
export type AutopilotCommand =
  | { verb: "start"; idea: string }
  | { verb: "status" }
  | { verb: "resume" }
  | { verb: "cancel" }
  | { verb: "clear" };

/** `/autopilot [idea|resume|cancel|clear]` → the command; undefined for any other text. */
export function parseAutopilotCommand(text: string): AutopilotCommand | undefined {
  const match = /^\/autopilot(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const rest = (match[1] ?? "").trim();
  if (rest === "") return { verb: "status" };
  const word = rest.toLowerCase();
  if (word === "resume" || word === "continue") return { verb: "resume" };
  if (word === "cancel" || word === "stop") return { verb: "cancel" };
  if (word === "clear") return { verb: "clear" };
  return { verb: "start", idea: rest };
}

/**
 * The session's autopilot (`/autopilot`, in the app and `nyz exec`): an idea taken through five
 * phases, each a turn of the lead, the state saved after each in `.nyzhi/state/autopilot.json`.
 */
export interface SessionAutopilot {
  /** The saved run of this project, if any. */
  state(): Promise<AutopilotState | undefined>;
  /**
   * Runs `command` as one "turn": `start` and `resume` run the phases (their agent events and an
   * `autopilot-phase` event per phase), the others change or show the state. The result's `text`
   * is the validation report once complete, else where the run stands; its figures sum the phases'.
   */
  run(command: AutopilotCommand, options: { signal: AbortSignal }): AsyncGenerator<AgentEvent, TurnResult>;
  /** A run of this session is going through its phases now. */
  running(): boolean;
  /**
   * Cancels the run (`/stop`, `/autopilot cancel`): a running one is interrupted, waited for, and
   * its state saved as `cancelled` (winning over the phase's own save: no next phase starts); a
   * saved one that is not running is marked `cancelled`. Says what it did.
   */
  cancel(): Promise<string>;
}

export interface SessionAutopilotParts {
  projectRoot: string;
  sessionId: string;
  lead: AgentTag;
  runTurn: (input: TurnInput, options: { signal: AbortSignal }) => AsyncGenerator<AgentEvent, TurnResult>;
}

const preview = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

const said = (text: string): TurnResult => ({
  reason: "completed",
  steps: 0,
  text,
  usage: emptyUsage(),
  costUsd: 0,
});

/** The run going through its phases in this session. */
interface ActiveRun {
  abort: AbortController;
  cancelled: boolean;
  /** Settles once the run has made its last save. */
  done: Promise<void>;
}

export function sessionAutopilot(parts: SessionAutopilotParts): SessionAutopilot {
  const { projectRoot } = parts;
  let active: ActiveRun | undefined;
  const cancel = async (): Promise<string> => {
    const run = active;
    if (run) {
      run.cancelled = true;
      run.abort.abort();
      await run.done;
    }
    const state = await loadAutopilotState(projectRoot);
    if (run && state?.phase === "cancelled")
      return `Autopilot cancelled (${preview(state.idea)}). /autopilot clear deletes its state.`;
    if (!isAutopilotActive(state)) return describeAutopilot(state);
    await saveAutopilotState(projectRoot, { ...state, phase: "cancelled" });
    return `Autopilot cancelled at the ${state.phase} phase. /autopilot clear deletes its state.`;
  };
  return {
    state: () => loadAutopilotState(projectRoot),
    running: () => active !== undefined,
    cancel,
    async *run(command, options) {
      switch (command.verb) {
        case "status":
          return said(describeAutopilot(await loadAutopilotState(projectRoot)));
        case "clear":
          return said(
            (await clearAutopilotState(projectRoot))
              ? "Autopilot state deleted."
              : "No autopilot state to delete.",
          );
        case "cancel":
          return said(await cancel());
        case "resume":
        case "start": {
          const saved = command.verb === "resume" ? await loadAutopilotState(projectRoot) : undefined;
          if (command.verb === "resume" && !isAutopilotActive(saved))
            return said(`Nothing to resume. ${describeAutopilot(saved)}`);
          const state: AutopilotState =
            command.verb === "start"
              ? { idea: command.idea, phase: "expansion", execution_log: [], qa_results: [] }
              : (saved as AutopilotState);
          if (active) return said("An autopilot run is going already: /stop or /autopilot cancel stops it.");
          const abort = new AbortController();
          const follow = () => abort.abort();
          options.signal.addEventListener("abort", follow, { once: true });
          if (options.signal.aborted) abort.abort();
          let finished = () => {};
          const run: ActiveRun = {
            abort,
            cancelled: false,
            done: new Promise<void>((resolve) => {
              finished = resolve;
            }),
          };
          active = run;
          let result: AutopilotRunResult;
          try {
            result = yield* runAutopilot(state, {
              ...parts,
              signal: abort.signal,
              cancelled: () => run.cancelled,
            });
          } finally {
            options.signal.removeEventListener("abort", follow);
            active = undefined;
            finished();
          }
          const text =
            result.reason === "completed"
              ? (result.state.validation_report ?? "")
              : result.cancelledIn
                ? `Autopilot cancelled in the ${result.cancelledIn} phase. /autopilot clear deletes its state.`
                : `Autopilot stopped in the ${result.state.phase} phase (${result.reason}); /autopilot resume goes on from there.\n${describeAutopilot(result.state)}`;
          return { ...result.turns, reason: result.reason, text };
        }
      }
    },
  };
}
