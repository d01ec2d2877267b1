import type { ApprovalAnswer, ApprovalPrompt } from "@nyzhi/core";
import {
  type ApprovalDecision,
  type ApprovalRequestView,
  toApprovalAnswer,
} from "../approval/approval-types.js";
import { type ApprovalRule, matchesRule, ruleFor } from "./approval-memory.js";

interface Pending {
  view: ApprovalRequestView;
  prompt: ApprovalPrompt;
  resolve: (answer: ApprovalAnswer) => void;
}

/**
 * The approvals waiting for the user, in arrival order. Core's `host.approve` calls `ask`, which
 * waits until the dialog answers; agents that do not wait on a request keep running. An "allow
 * always" answer is remembered (`approval-memory.ts`) and answers matching requests at once, the
 * ones already queued included. A plain store (`subscribe`/`snapshot`) so React reads it with
 * `useSyncExternalStore`.
 */
export class ApprovalQueue {
  #pending: Pending[] = [];
  #snapshot: readonly ApprovalRequestView[] = [];
  readonly #rules: ApprovalRule[] = [];
  readonly #listeners = new Set<() => void>();
  #nextId = 1;

  constructor(private readonly options: { cwd?: string } = {}) {}

  /** Core's `ApprovalCallback`: resolves with the user's answer (or "allow" by a remembered rule). */
  ask = (prompt: ApprovalPrompt): Promise<ApprovalAnswer> => {
    if (this.isRemembered(prompt)) return Promise.resolve("allow");
    return new Promise((resolve) => {
      const view: ApprovalRequestView = {
        id: `approval-${this.#nextId++}`,
        tool: prompt.tool,
        input: prompt.input,
        preview: prompt.preview,
        agent: prompt.agent,
        cwd: this.options.cwd,
      };
      this.#pending.push({ view, prompt, resolve });
      this.#changed();
    });
  };

  /** The dialog's answer to the request `id`; `always` also answers the queued ones it covers. */
  answer(id: string, decision: ApprovalDecision): ApprovalRule | undefined {
    const pending = this.#pending.find((entry) => entry.view.id === id);
    if (!pending) return undefined;
    this.#pending = this.#pending.filter((entry) => entry !== pending);
    let rule: ApprovalRule | undefined;
    if (decision.approved && decision.always) {
      rule = ruleFor(pending.prompt);
      this.#rules.push(rule);
      const covered = this.#pending.filter((entry) => matchesRule(rule!, entry.prompt));
      this.#pending = this.#pending.filter((entry) => !covered.includes(entry));
      for (const entry of covered) entry.resolve("allow");
    }
    pending.resolve(toApprovalAnswer(decision));
    this.#changed();
    return rule;
  }

  /** Denies every waiting request (the turn was interrupted, or the app is closing). */
  denyAll(reason: string): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (const entry of pending) entry.resolve({ deny: reason });
    this.#changed();
  }

  isRemembered(prompt: Pick<ApprovalPrompt, "tool" | "input">): boolean {
    return this.#rules.some((rule) => matchesRule(rule, prompt));
  }

  get rules(): readonly ApprovalRule[] {
    return this.#rules;
  }

  snapshot = (): readonly ApprovalRequestView[] => this.#snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #changed(): void {
    this.#snapshot = this.#pending.map((entry) => entry.view);
    for (const listener of this.#listeners) listener();
  }
}
