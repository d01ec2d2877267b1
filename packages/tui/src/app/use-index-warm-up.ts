import type { OpenedSession } from "@nyzhi/core";
import { useStdin } from "ink";
import { useEffect } from "react";

/**
 * Starts the session's code index at the first key typed once the session is open: the index
 * (for the app, its `nyz __index-process` child with LanceDB) is needed by the coming turn's
 * auto-context, and opening it while the prompt is typed keeps that turn from waiting. An app left
 * idle never starts it (the first turn would, see `AgentRuntime.runTurn`).
 */
export function useIndexWarmUp(session: OpenedSession | undefined): void {
  const { internal_eventEmitter: emitter } = useStdin();
  useEffect(() => {
    if (!session) return;
    const onInput = () => {
      emitter.removeListener("input", onInput);
      session.warmUpIndex();
    };
    emitter.on("input", onInput);
    return () => {
      emitter.removeListener("input", onInput);
    };
  }, [session, emitter]);
}
