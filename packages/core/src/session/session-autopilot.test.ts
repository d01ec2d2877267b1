import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage } from "@nyzhi/provider";
import { afterEach, describe, expect, it } from "vitest";
import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import { loadAutopilotState, saveAutopilotState } from "../autopilot/autopilot-state.js";
import type { AgentEvent } from "../events/agent-events.js";
import { sessionAutopilot } from "./session-autopilot.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

const done = (text: string, reason: TurnResult["reason"] = "completed"): TurnResult => ({
  reason,
  steps: 1,
  text,
  usage: emptyUsage(),
  costUsd: 0,
});

/** An autopilot over a fake lead whose turn is `turn` (it gets the phase's prompt and the signal). */
async function autopilotWith(
  turn: (prompt: string, signal: AbortSignal) => Promise<TurnResult>,
): Promise<{ projectRoot: string; prompts: string[]; autopilot: ReturnType<typeof sessionAutopilot> }> {
  const projectRoot = await mkdtemp(join(tmpdir(), "nyzhi-autopilot-"));
  roots.push(projectRoot);
  const prompts: string[] = [];
  const autopilot = sessionAutopilot({
    projectRoot,
    sessionId: "s1",
    lead: { agentId: "lead", depth: 0 },
    runTurn: async function* (input: TurnInput, options): AsyncGenerator<AgentEvent, TurnResult> {
      const prompt =
        typeof input === "string" ? input : input.map((part) => ("text" in part ? part.text : "")).join("");
      prompts.push(prompt);
      return turn(prompt, options.signal);
    },
  });
  return { projectRoot, prompts, autopilot };
}

async function drain(run: AsyncGenerator<AgentEvent, TurnResult>): Promise<TurnResult> {
  let next = await run.next();
  while (!next.done) next = await run.next();
  return next.value;
}

describe("cancelling autopilot", () => {
  it("cancel while a phase runs: the phase is interrupted, the state ends cancelled, no next phase starts", async () => {
    const { projectRoot, prompts, autopilot } = await autopilotWith(
      (_prompt, signal) =>
        new Promise((resolve) => signal.addEventListener("abort", () => resolve(done("", "aborted")))),
    );
    const running = drain(
      autopilot.run({ verb: "start", idea: "a greeter" }, { signal: new AbortController().signal }),
    );
    while (prompts.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(autopilot.running()).toBe(true);
    const said = await autopilot.cancel();
    expect(said).toContain("Autopilot cancelled");
    expect((await running).text).toContain("cancelled in the expansion phase");
    expect(autopilot.running()).toBe(false);
    expect((await loadAutopilotState(projectRoot))?.phase).toBe("cancelled");
    expect(prompts).toHaveLength(1);
  });

  it("a cancel that arrives as the phase completes wins over the phase's own save", async () => {
    let cancelling: Promise<string> | undefined;
    const { projectRoot, prompts, autopilot } = await autopilotWith(async () => {
      // The person cancels just as the phase's answer is in: its turn still completes.
      cancelling = autopilot.cancel();
      return done("REQUIREMENTS");
    });
    const result = await drain(
      autopilot.run({ verb: "start", idea: "a greeter" }, { signal: new AbortController().signal }),
    );
    await cancelling;
    expect(result.text).toContain("cancelled in the expansion phase");
    expect((await loadAutopilotState(projectRoot))?.phase).toBe("cancelled");
    expect(prompts).toHaveLength(1);
  });

  it("a cancel saved by another process stops the run before its next phase", async () => {
    const { projectRoot, prompts, autopilot } = await autopilotWith(async () => {
      const saved = await loadAutopilotState(projectRoot);
      if (saved) await saveAutopilotState(projectRoot, { ...saved, phase: "cancelled" });
      return done("REQUIREMENTS");
    });
    await drain(
      autopilot.run({ verb: "start", idea: "a greeter" }, { signal: new AbortController().signal }),
    );
    expect((await loadAutopilotState(projectRoot))?.phase).toBe("cancelled");
    expect(prompts).toHaveLength(1);
  });

  it("without a cancel the phases run to the end", async () => {
    const { projectRoot, prompts, autopilot } = await autopilotWith(async () =>
      done(`answer ${prompts.length}`),
    );
    await drain(
      autopilot.run({ verb: "start", idea: "a greeter" }, { signal: new AbortController().signal }),
    );
    expect(prompts).toHaveLength(5);
    expect((await loadAutopilotState(projectRoot))?.phase).toBe("complete");
  });
});
