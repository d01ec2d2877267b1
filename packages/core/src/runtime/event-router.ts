import type { AgentEvent } from "../events/agent-events.js";

/**
 * Routes events that happen outside the lead's own loop (subagents working in the background)
 * into the lead's current turn stream; between turns they go to the host's background listener.
 */
export class EventRouter {
  private current: ((event: AgentEvent) => void) | undefined;

  constructor(private readonly background?: (event: AgentEvent) => void) {}

  route = (event: AgentEvent): void => {
    if (this.current) this.current(event);
    else this.background?.(event);
  };

  /** Used as the lead's `attachEventSource`. */
  attach = (emit: (event: AgentEvent) => void): (() => void) => {
    this.current = emit;
    return () => {
      if (this.current === emit) this.current = undefined;
    };
  };
}
