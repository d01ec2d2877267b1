import type { AgentEvent, AgentTag } from "../events/agent-events.js";

/**
 * `ask_user` for a host that answers events: each question is a `question` event with an id, and
 * waits until the host answers that id (`answer`) or every waiting one is dismissed.
 */
export interface HostQuestions {
  /** The `askUser` service the lead's `ask_user` tool calls. */
  ask(question: string, options?: { choices?: string[] }): Promise<string>;
  /** Returns false when no question waits under `id`. */
  answer(id: string, text: string): boolean;
  /** Ends every waiting question with `text` (an interrupt, the host closing). */
  dismissAll(text: string): void;
}

export function hostQuestions(emit: (event: AgentEvent) => void, agent: AgentTag): HostQuestions {
  const waiting = new Map<string, (text: string) => void>();
  let next = 1;
  return {
    ask(question, options) {
      const id = `question-${next++}`;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        emit({
          type: "question",
          agent,
          id,
          question,
          ...(options?.choices ? { choices: options.choices } : {}),
        });
      });
    },
    answer(id, text) {
      const resolve = waiting.get(id);
      if (!resolve) return false;
      waiting.delete(id);
      resolve(text);
      return true;
    },
    dismissAll(text) {
      const all = [...waiting.values()];
      waiting.clear();
      for (const resolve of all) resolve(text);
    },
  };
}
