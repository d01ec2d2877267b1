import { join } from "node:path";
import { type TrustMode, writeFileAtomic } from "@nyzhi/config";
import {
  type ModelInfo,
  type ThinkingLevelChoice,
  type ThinkingOptions,
  thinkingForLevel,
  thinkingLevelsOf,
} from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { EXECUTING_PLAN_INSTRUCTIONS } from "../agent-loop/plan-mode.js";

/**
 * The session's mode, cycled by Shift+Tab in the app: `plan` (read-only, plans without acting),
 * `normal` (the configured trust mode), `autoedit` (auto-accept edits: trust mode autoedit).
 */
export type SessionMode = "plan" | "normal" | "autoedit";

export const SESSION_MODES: readonly SessionMode[] = ["plan", "normal", "autoedit"];

/** The thinking the lead's requests ask for; `level` "off" is none. */
export interface ThinkingSetting {
  level: string;
  /** Tokens, when a budget was set (`/think budget N`) or the level implies one. */
  budgetTokens?: number | undefined;
}

/** What changing the mode did: the new mode, and the plan to offer for execution when plan mode ended. */
export interface ModeChange {
  mode: SessionMode;
  /** Set when plan mode was left after the lead wrote a plan: offer to execute it. */
  plan?: string | undefined;
}

/** The text sent when the user accepts to execute the plan (shown as the user's prompt). */
export const EXECUTE_PLAN_PROMPT = "execute the plan";

/** The default thinking budget of `/think on` (spec edges §3.8). */
export const DEFAULT_THINKING_BUDGET = 10_000;

export interface SessionModesOptions {
  context: AgentContext;
  /** Where the plan file goes (`.nyzhi/plans/<id>.plan.md`). */
  projectRoot: string;
  sessionId: string;
  /** The runtime's trust override. */
  setTrustMode(mode: TrustMode | undefined): void;
  /** The trust mode approvals follow now. */
  trustMode(): TrustMode;
  /** The lead's model's registry facts now (its thinking levels). */
  modelInfo(): ModelInfo | undefined;
  /** `agent.plan_mode`: start in plan mode. */
  startInPlan: boolean;
}

/** The session's mode and thinking state, applied to the lead's context. */
export class SessionModes {
  #mode: SessionMode = "normal";
  #thinking: ThinkingSetting = { level: "off" };
  #plan: string | undefined;
  #thinkingOptions: ThinkingOptions | undefined;
  readonly #options: SessionModesOptions;

  constructor(options: SessionModesOptions) {
    this.#options = options;
    if (options.startInPlan) this.setMode("plan");
  }

  get mode(): SessionMode {
    return this.#mode;
  }

  /** The last plan the lead wrote in plan mode, if any. */
  get plan(): string | undefined {
    return this.#plan;
  }

  /** The trust mode approvals follow now (autoedit while auto-accepting edits, else the config's). */
  trustMode(): TrustMode {
    return this.#options.trustMode();
  }

  get thinking(): ThinkingSetting {
    return { ...this.#thinking };
  }

  setMode(mode: SessionMode): ModeChange {
    const leaving = this.#mode === "plan" && mode !== "plan";
    this.#mode = mode;
    this.#options.context.planMode = mode === "plan";
    this.#options.setTrustMode(mode === "autoedit" ? "autoedit" : undefined);
    return leaving && this.#plan ? { mode, plan: this.#plan } : { mode };
  }

  /** plan → normal → autoedit → plan. */
  cycleMode(): ModeChange {
    const next = SESSION_MODES[(SESSION_MODES.indexOf(this.#mode) + 1) % SESSION_MODES.length]!;
    return this.setMode(next);
  }

  /** Levels of the current model's thinking picker; empty when it has none. */
  thinkingLevels(): ThinkingLevelChoice[] {
    return thinkingLevelsOf(this.#options.modelInfo()?.thinking);
  }

  /** Sets the level ("off" turns thinking off, also clearing a budget). */
  setThinkingLevel(level: string): ThinkingSetting {
    const name = level.trim().toLowerCase() || "off";
    const options = thinkingForLevel(name);
    this.#thinking = { level: name, budgetTokens: options?.budgetTokens };
    this.#apply(options);
    return this.thinking;
  }

  /** `/think budget N`: thinking on with a token budget. */
  setThinkingBudget(tokens: number): ThinkingSetting {
    this.#thinking = { level: "on", budgetTokens: tokens };
    this.#apply({ effort: "on", budgetTokens: tokens });
    return this.thinking;
  }

  /** `/think` without arguments and `/think on|off`. */
  toggleThinking(on?: boolean): ThinkingSetting {
    const enable = on ?? this.#thinking.level === "off";
    if (!enable) return this.setThinkingLevel("off");
    this.#thinking = { level: "on", budgetTokens: DEFAULT_THINKING_BUDGET };
    this.#apply({ effort: "on", budgetTokens: DEFAULT_THINKING_BUDGET });
    return this.thinking;
  }

  /**
   * Applies one turn's overrides (a prompt's `plan:` or thinking prefix) to the lead's context;
   * the returned function puts the session's settings back.
   */
  applyTurnModes(turn: { planMode: boolean; thinking: ThinkingOptions | undefined }): () => void {
    const { context } = this.#options;
    if (turn.planMode) context.planMode = true;
    if (turn.thinking) context.thinking = turn.thinking;
    // Back to the session's settings as they are then (a command may have changed them meanwhile).
    return () => {
      context.planMode = this.#mode === "plan";
      this.#apply(this.#thinkingOptions);
    };
  }

  /** Keeps a plan-mode turn's answer as the session's plan (and in `.nyzhi/plans/<id>.plan.md`). */
  async recordPlan(text: string): Promise<void> {
    if (!text.trim()) return;
    this.#plan = text.trim();
    const file = join(this.#options.projectRoot, ".nyzhi", "plans", `${this.#options.sessionId}.plan.md`);
    await writeFileAtomic(file, `${this.#plan}\n`);
  }

  /** The prompt that executes the plan: "execute the plan" with the plan attached. */
  executePlanPrompt(): string | undefined {
    if (!this.#plan) return undefined;
    return `${EXECUTE_PLAN_PROMPT}\n\n${EXECUTING_PLAN_INSTRUCTIONS}\n\n<plan>\n${this.#plan}\n</plan>`;
  }

  #apply(options: ThinkingOptions | undefined): void {
    this.#thinkingOptions = options;
    if (options) this.#options.context.thinking = options;
    else delete this.#options.context.thinking;
  }
}
