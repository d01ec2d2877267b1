import type { AgentEvent, SessionHost } from "@nyzhi/core";
import { ApprovalQueue } from "./approval-queue.js";

/** What the session tells the app besides a turn's own events. */
export type BridgeMessage =
  | { type: "agent-event"; event: AgentEvent }
  | { type: "notice"; message: string; tone: "info" | "warning" }
  | { type: "queued-delivered"; texts: string[] };

/** An `ask_user` question waiting for the next line the user sends. */
export interface PendingQuestion {
  question: string;
  choices?: readonly string[] | undefined;
}

/**
 * The app's side of core's `SessionHost`: created before the session opens (its callbacks are
 * given to `openSession`), read by the App once it is mounted. Approvals queue in `approvals`;
 * `ask_user` questions in `question`; everything else is a `BridgeMessage`, buffered until the App
 * listens, so nothing said while the session opens is lost.
 */
export class SessionBridge {
  readonly approvals: ApprovalQueue;
  #listener: ((message: BridgeMessage) => void) | undefined;
  #buffer: BridgeMessage[] = [];
  #questions: { question: PendingQuestion; resolve: (answer: string) => void }[] = [];
  #questionListeners = new Set<() => void>();

  constructor(options: { cwd?: string } = {}) {
    this.approvals = new ApprovalQueue(options);
  }

  /** The callbacks for `openSession({ host })`. */
  host(): SessionHost {
    return {
      approve: this.approvals.ask,
      askUser: (question, options) => this.#ask({ question, choices: options?.choices }),
      onBackgroundEvent: (event) => this.emit({ type: "agent-event", event }),
      onWarning: (message) => this.emit({ type: "notice", message, tone: "warning" }),
      onMcpNotice: (message) => this.emit({ type: "notice", message, tone: "warning" }),
      onHookResult: (result) => {
        if (result.summary) {
          this.emit({
            type: "notice",
            message: result.summary,
            tone: result.status === "ok" ? "info" : "warning",
          });
        }
      },
      onQueuedDelivered: (texts) => this.emit({ type: "queued-delivered", texts }),
    };
  }

  emit(message: BridgeMessage): void {
    if (this.#listener) this.#listener(message);
    else this.#buffer.push(message);
  }

  /** One listener (the App); what arrived before it is delivered first. */
  listen(listener: (message: BridgeMessage) => void): () => void {
    this.#listener = listener;
    const buffered = this.#buffer.splice(0);
    for (const message of buffered) listener(message);
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }

  /** The question shown now (the oldest waiting). */
  question = (): PendingQuestion | undefined => this.#questions[0]?.question;

  subscribeQuestions = (listener: () => void): (() => void) => {
    this.#questionListeners.add(listener);
    return () => this.#questionListeners.delete(listener);
  };

  /** Answers the question shown now. */
  answerQuestion(answer: string): void {
    const first = this.#questions.shift();
    if (!first) return;
    first.resolve(answer);
    this.#questionsChanged();
  }

  /** Ends every waiting question with `answer` (interrupt, exit). */
  dismissQuestions(answer: string): void {
    const all = this.#questions.splice(0);
    for (const entry of all) entry.resolve(answer);
    if (all.length > 0) this.#questionsChanged();
  }

  #ask(question: PendingQuestion): Promise<string> {
    return new Promise((resolve) => {
      this.#questions.push({ question, resolve });
      this.#questionsChanged();
    });
  }

  #questionsChanged(): void {
    for (const listener of this.#questionListeners) listener();
  }
}
