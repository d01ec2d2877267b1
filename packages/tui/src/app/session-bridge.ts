import type { AgentEvent, OpenedSession, SessionHost } from "@nyzhi/core";
import { ApprovalQueue } from "./approval-queue.js";

/** An `ask_user` question waiting for the next line the user sends. */
export interface PendingQuestion {
  id: string;
  question: string;
  choices?: readonly string[] | undefined;
}

/**
 * The app's side of core's session protocol: created before the session opens (`host()` is given
 * to `openSession`), read by the App once it is mounted. Every event of the session passes
 * `take` — the turn's own (from `runTurn`) and the rest (from `host().onEvent`, buffered until the
 * App listens, so nothing said while the session opens is lost). Approvals and questions are kept
 * from those events until answered through the session (`session.answer`).
 */
export class SessionBridge {
  readonly approvals: ApprovalQueue;
  #session: Pick<OpenedSession, "answer" | "dismissPending"> | undefined;
  #listener: ((event: AgentEvent) => void) | undefined;
  #buffer: AgentEvent[] = [];
  #questions: PendingQuestion[] = [];
  #questionListeners = new Set<() => void>();

  constructor(options: { cwd?: string } = {}) {
    this.approvals = new ApprovalQueue(options);
  }

  /** The host for `openSession({ host })`: an event sink that answers approvals and questions. */
  host(): SessionHost {
    return { interactive: true, onEvent: (event) => this.emit(event) };
  }

  /** The open session answers from here on (undefined: none is open). */
  attach(session: Pick<OpenedSession, "answer" | "dismissPending"> | undefined): void {
    this.#session = session;
    this.approvals.answerWith(session ? (id, reply) => session.answer(id, reply) : undefined);
  }

  /** An event outside a running turn: kept, then given to the listener (buffered until there is one). */
  emit(event: AgentEvent): void {
    this.take(event);
    if (this.#listener) this.#listener(event);
    else this.#buffer.push(event);
  }

  /** Notes what an event asks (an approval, a question) or settles. */
  take(event: AgentEvent): void {
    this.approvals.take(event);
    if (event.type === "question") {
      this.#questions.push({ id: event.id, question: event.question, choices: event.choices });
      this.#questionsChanged();
    }
  }

  /** One listener (the App); what arrived before it is delivered first. */
  listen(listener: (event: AgentEvent) => void): () => void {
    this.#listener = listener;
    const buffered = this.#buffer.splice(0);
    for (const event of buffered) listener(event);
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }

  /** The question shown now (the oldest waiting). */
  question = (): PendingQuestion | undefined => this.#questions[0];

  subscribeQuestions = (listener: () => void): (() => void) => {
    this.#questionListeners.add(listener);
    return () => this.#questionListeners.delete(listener);
  };

  /** Answers the question shown now. */
  answerQuestion(answer: string): void {
    const first = this.#questions.shift();
    if (!first) return;
    this.#session?.answer(first.id, { text: answer });
    this.#questionsChanged();
  }

  /** Denies every waiting approval with `reason` and dismisses every question (interrupt, exit). */
  dismissAll(reason: string): void {
    this.#session?.dismissPending(reason);
    this.approvals.clear();
    if (this.#questions.splice(0).length > 0) this.#questionsChanged();
  }

  #questionsChanged(): void {
    for (const listener of this.#questionListeners) listener();
  }
}
