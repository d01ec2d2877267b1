import type { OpenedSession } from "@nyzhi/core";
import { useEffect } from "react";

/**
 * When a session opens (a restart, `nyz -c`) on a project whose autopilot run has phases to go,
 * says where it stopped and how to go on; a damaged state file is said too (with its fix).
 */
export function useAutopilotNotice(
  session: OpenedSession | undefined,
  say: (message: string, tone?: "info" | "warning") => void,
): void {
  useEffect(() => {
    if (!session) return;
    let cancelled = false;
    session.autopilot.state().then(
      (state) => {
        if (cancelled || !state || state.phase === "complete" || state.phase === "cancelled") return;
        say(
          `Autopilot "${state.idea}" stopped before its ${state.phase} phase: /autopilot resume goes on, /autopilot shows it, /autopilot cancel stops it.`,
        );
      },
      (error: unknown) => {
        if (!cancelled) say(error instanceof Error ? error.message : String(error), "warning");
      },
    );
    return () => {
      cancelled = true;
    };
  }, [session, say]);
}
