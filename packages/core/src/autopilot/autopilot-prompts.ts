import type { AutopilotState, AutopilotWorkingPhase } from "./autopilot-state.js";

const TITLES: Readonly<Record<AutopilotWorkingPhase, string>> = {
  expansion: "phase 1/5: expansion",
  planning: "phase 2/5: planning",
  execution: "phase 3/5: execution",
  qa: "phase 4/5: qa",
  validation: "phase 5/5: validation",
};

/** The marker that opens every phase's prompt: `[AUTOPILOT — phase 2/5: planning]`. */
export function autopilotMarker(phase: AutopilotWorkingPhase): string {
  return `[AUTOPILOT — ${TITLES[phase]}]`;
}

const section = (title: string, text: string | undefined) => `${title}:\n${text?.trim() || "(none)"}`;

/**
 * The lead's prompt for `phase`, built from what the earlier phases answered (the original nyzhi's
 * `build_*_prompt`): each phase's result feeds the next one's prompt.
 */
export function autopilotPrompt(phase: AutopilotWorkingPhase, state: AutopilotState): string {
  const head = [autopilotMarker(phase), section("Idea", state.idea)];
  switch (phase) {
    case "expansion":
      return [
        ...head,
        "Expand this idea into concrete requirements: the goal, what is in and out of scope, constraints, and acceptance criteria a reviewer could check. Read the project as you need to; change no file yet. Answer with the requirements only.",
      ].join("\n\n");
    case "planning":
      return [
        ...head,
        section("Requirements", state.requirements),
        "Write a step-by-step implementation plan for these requirements: the files to change or add, in order, and the tests that will show each requirement met. Change no file yet. Answer with the plan only.",
      ].join("\n\n");
    case "execution":
      return [
        ...head,
        section("Plan", state.plan),
        "Carry out the plan now: make the changes and run the tests as you go. End with a short log of what you changed and what you ran.",
      ].join("\n\n");
    case "qa":
      return [
        ...head,
        section("What the execution phase reported", state.execution_log.at(-1)),
        "Check the work: build, run the tests and the linters, and review the changes against the idea; fix what fails. Report each check and its result.",
      ].join("\n\n");
    case "validation":
      return [
        ...head,
        section("Requirements", state.requirements),
        section("QA results", state.qa_results.at(-1)),
        "Validate the result against every requirement. Answer with a validation report: each requirement, met or not, with the evidence; then what is left to do, if anything.",
      ].join("\n\n");
  }
}

/** Stores a finished phase's answer in its field and moves to the next phase. */
export function recordPhase(
  state: AutopilotState,
  phase: AutopilotWorkingPhase,
  answer: string,
): AutopilotState {
  switch (phase) {
    case "expansion":
      return { ...state, requirements: answer, phase: "planning" };
    case "planning":
      return { ...state, plan: answer, phase: "execution" };
    case "execution":
      return { ...state, execution_log: [...state.execution_log, answer], phase: "qa" };
    case "qa":
      return { ...state, qa_results: [...state.qa_results, answer], phase: "validation" };
    case "validation":
      return { ...state, validation_report: answer, phase: "complete" };
  }
}
