import type { AgentEvent, ApprovalAnswer } from "@nyzhi/core";
import {
  type ApprovalDecision,
  type ApprovalRequestView,
  toApprovalAnswer,
} from "../approval/approval-types.js";

/**
 * The approvals waiting for the person, in arrival order, as the session's `approval-requested`
 * events announced them. Answers go back to core (`session.answer`), which decides what an "allow
 * always" covers (the waiting requests it covers are resolved there and leave with their
 * `approval-resolved`). A plain store (`subscribe`/`snapshot`) so React reads it with
 * `useSyncExternalStore`.
 */
export class ApprovalQueue {
  #pending: ApprovalRequestView[] = [];
  readonly #listeners = new Set<() => void>();
  #answer: ((id: string, answer: ApprovalAnswer) => boolean) | undefined;

  constructor(private readonly options: { cwd?: string } = {}) {}

  /** Where answers go (the open session). */
  answerWith(answer: ((id: string, reply: ApprovalAnswer) => boolean) | undefined): void {
    this.#answer = answer;
  }

  /** Takes the session's approval events: a request is shown until it is resolved. */
  take(event: AgentEvent): void {
    if (event.type === "approval-requested") {
      this.#set([
        ...this.#pending,
        {
          id: event.id,
          callId: event.callId,
          tool: event.tool,
          input: event.input,
          preview: event.preview,
          agent: event.agent,
          cwd: this.options.cwd,
        },
      ]);
    } else if (event.type === "approval-resolved") {
      const left = this.#pending.filter(
        (view) => !(view.callId === event.callId && view.agent.agentId === event.agent.agentId),
      );
      if (left.length !== this.#pending.length) this.#set(left);
    }
  }

  /** The dialog's answer to the request `id`. */
  answer(id: string, decision: ApprovalDecision): void {
    if (!this.#pending.some((view) => view.id === id)) return;
    this.#set(this.#pending.filter((view) => view.id !== id));
    this.#answer?.(id, toApprovalAnswer(decision));
  }

  /** Forgets every shown request (core denied them: an interrupt, the app closing). */
  clear(): void {
    if (this.#pending.length > 0) this.#set([]);
  }

  snapshot = (): readonly ApprovalRequestView[] => this.#pending;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #set(next: ApprovalRequestView[]): void {
    this.#pending = next;
    for (const listener of this.#listeners) listener();
  }
}
