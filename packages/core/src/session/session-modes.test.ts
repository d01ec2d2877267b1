import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrustMode } from "@nyzhi/config";
import { describe, expect, it } from "vitest";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { SessionModes } from "./session-modes.js";

async function modes(startInPlan = false) {
  const context = { planMode: false } as AgentContext;
  const trust: Array<TrustMode | undefined> = [];
  const projectRoot = await mkdtemp(join(tmpdir(), "nyzhi-modes-"));
  const state = new SessionModes({
    context,
    projectRoot,
    sessionId: "s1",
    setTrustMode: (mode) => trust.push(mode),
    trustMode: () => trust.at(-1) ?? "off",
    modelInfo: () => undefined,
    startInPlan,
  });
  return { state, context, trust, projectRoot };
}

describe("SessionModes", () => {
  it("cycles normal → auto-accept edits → plan → normal, setting trust and plan mode", async () => {
    const { state, context, trust } = await modes();
    expect(state.cycleMode().mode).toBe("autoedit");
    expect(trust.at(-1)).toBe("autoedit");
    expect(state.cycleMode().mode).toBe("plan");
    expect(context.planMode).toBe(true);
    expect(trust.at(-1)).toBeUndefined();
    expect(state.cycleMode()).toEqual({ mode: "normal" });
    expect(context.planMode).toBe(false);
  });

  it("keeps a plan, saves it, and offers it when plan mode ends", async () => {
    const { state, projectRoot } = await modes(true);
    expect(state.mode).toBe("plan");
    await state.recordPlan("1. do it\n");
    expect(await readFile(join(projectRoot, ".nyzhi", "plans", "s1.plan.md"), "utf8")).toBe("1. do it\n");
    expect(state.setMode("normal")).toEqual({ mode: "normal", plan: "1. do it" });
    expect(state.executePlanPrompt()).toMatch(/^execute the plan\n[\s\S]*<plan>\n1\. do it\n<\/plan>$/);
  });

  it("sets thinking on the lead's context; a turn's override is put back", async () => {
    const { state, context } = await modes();
    state.setThinkingBudget(8000);
    expect(context.thinking).toEqual({ effort: "on", budgetTokens: 8000 });
    const restore = state.applyTurnModes({
      planMode: true,
      thinking: { effort: "high", budgetTokens: 16384 },
    });
    expect(context).toMatchObject({ planMode: true, thinking: { budgetTokens: 16384 } });
    restore();
    expect(context).toMatchObject({ planMode: false, thinking: { budgetTokens: 8000 } });
    expect(state.setThinkingLevel("off")).toEqual({ level: "off", budgetTokens: undefined });
    expect(context.thinking).toBeUndefined();
    expect(state.thinkingLevels()).toEqual([]);
  });
});
