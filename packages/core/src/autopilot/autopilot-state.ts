import { rm } from "node:fs/promises";
import { join } from "node:path";
import { NyzhiError, readFileIfExists, writeFileAtomic } from "@nyzhi/config";
import { z } from "zod";
import type { AutopilotPhase } from "../events/agent-events.js";

/** The five working phases, in order; `complete` and `cancelled` are where it ends. */
export const AUTOPILOT_PHASES = ["expansion", "planning", "execution", "qa", "validation"] as const;

export type AutopilotWorkingPhase = (typeof AUTOPILOT_PHASES)[number];
export type { AutopilotPhase };

/**
 * An autopilot run as saved after each phase in `<project>/.nyzhi/state/autopilot.json` (snake_case,
 * as the original nyzhi wrote it): the idea, the phase it is at (the next to run), and what each
 * finished phase answered.
 */
export interface AutopilotState {
  idea: string;
  phase: AutopilotPhase;
  /** The expansion phase's answer: the idea as requirements. */
  requirements?: string | undefined;
  /** The planning phase's answer. */
  plan?: string | undefined;
  /** The execution phase's answers (one per run of the phase). */
  execution_log: string[];
  /** The QA phase's answers. */
  qa_results: string[];
  /** The validation phase's answer: the report `nyz exec` prints. */
  validation_report?: string | undefined;
  /** The session that ran the last phase. */
  session_id?: string | undefined;
  /** ISO time of the last save. */
  updated_at?: string | undefined;
}

const stateSchema = z.object({
  idea: z.string(),
  phase: z.enum([...AUTOPILOT_PHASES, "complete", "cancelled"]),
  requirements: z.string().optional(),
  plan: z.string().optional(),
  execution_log: z.array(z.string()).default([]),
  qa_results: z.array(z.string()).default([]),
  validation_report: z.string().optional(),
  session_id: z.string().optional(),
  updated_at: z.string().optional(),
});

/** The state file is not valid JSON or not an autopilot state. */
export class AutopilotStateError extends NyzhiError {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(
      "autopilot_state",
      `${path} is not a valid autopilot state (${detail}). Fix it, or delete it with /autopilot clear (nyz exec "/autopilot clear").`,
    );
    this.path = path;
  }
}

/** `<project>/.nyzhi/state/autopilot.json`. */
export function autopilotStatePath(projectRoot: string): string {
  return join(projectRoot, ".nyzhi", "state", "autopilot.json");
}

/** The saved state; undefined when there is none. A damaged file throws `AutopilotStateError`. */
export async function loadAutopilotState(projectRoot: string): Promise<AutopilotState | undefined> {
  const path = autopilotStatePath(projectRoot);
  const text = await readFileIfExists(path);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AutopilotStateError(path, error instanceof Error ? error.message : String(error));
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AutopilotStateError(
      path,
      `${issue?.path.join(".") || "the file"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data as AutopilotState;
}

/** Saves `state` (pretty JSON, atomically: a failed write leaves the previous file whole). */
export async function saveAutopilotState(projectRoot: string, state: AutopilotState): Promise<void> {
  const saved: AutopilotState = { ...state, updated_at: new Date().toISOString() };
  await writeFileAtomic(autopilotStatePath(projectRoot), `${JSON.stringify(saved, null, 2)}\n`);
}

/** Deletes the state file; false when there was none. */
export async function clearAutopilotState(projectRoot: string): Promise<boolean> {
  const path = autopilotStatePath(projectRoot);
  try {
    await rm(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Whether the run still has phases to go. */
export function isAutopilotActive(
  state: AutopilotState | undefined,
): state is AutopilotState & { phase: AutopilotWorkingPhase } {
  return state !== undefined && state.phase !== "complete" && state.phase !== "cancelled";
}

const preview = (text: string | undefined, chars = 100) => {
  if (!text) return "—";
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > chars ? `${line.slice(0, chars - 1)}…` : line;
};

/** Where the run stands, with 100-character previews of each phase's answer (`/autopilot`). */
export function describeAutopilot(state: AutopilotState | undefined): string {
  if (!state) return "No autopilot run here. /autopilot <idea> starts one.";
  const next = isAutopilotActive(state)
    ? `Next: the ${state.phase} phase. /autopilot resume goes on, /autopilot cancel stops it.`
    : state.phase === "complete"
      ? "Complete. /autopilot clear deletes this state."
      : "Cancelled. /autopilot clear deletes this state.";
  return [
    `Autopilot: ${preview(state.idea, 80)}`,
    `Phase: ${state.phase}`,
    `  requirements  ${preview(state.requirements)}`,
    `  plan          ${preview(state.plan)}`,
    `  execution     ${state.execution_log.length > 0 ? preview(state.execution_log.at(-1)) : "—"}`,
    `  qa            ${state.qa_results.length > 0 ? preview(state.qa_results.at(-1)) : "—"}`,
    `  validation    ${preview(state.validation_report)}`,
    next,
  ].join("\n");
}
