import { CONTEXT_WARNING_POINTS, type OpenedSession } from "@nyzhi/core";
import { useEffect, useRef, useState } from "react";
import type { ContextFill } from "../status/status-footer.js";

/**
 * How full the lead's context window is, for the footer: measured (core's estimate, the one
 * compaction goes by) when the session opens and again whenever `tick` changes (a step's usage,
 * a turn's end). Crossing into the last `CONTEXT_WARNING_POINTS` before the compaction point says
 * so once in the transcript; falling back below it (a compaction, `/clear`) re-arms the warning.
 */
export function useContextFill(
  session: OpenedSession | undefined,
  tick: unknown,
  warn: (message: string) => void,
): ContextFill | undefined {
  const [fill, setFill] = useState<ContextFill | undefined>(undefined);
  const warned = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` is when to measure again.
  useEffect(() => {
    if (!session) return setFill(undefined);
    let usage: ReturnType<OpenedSession["contextUsage"]>;
    try {
      usage = session.contextUsage();
    } catch {
      // A session closed under the app (switching sessions): nothing to show.
      return setFill(undefined);
    }
    if (usage.percentUsed === undefined) return setFill(undefined);
    const next: ContextFill = {
      percent: usage.percentUsed,
      compactAtPercent: usage.compactAtPercent,
      warnBelowPoints: CONTEXT_WARNING_POINTS,
    };
    setFill((current) =>
      current?.percent === next.percent && current.compactAtPercent === next.compactAtPercent
        ? current
        : next,
    );
    const near = next.percent >= next.compactAtPercent - CONTEXT_WARNING_POINTS;
    if (near && !warned.current) {
      warn(
        `Context ${next.percent}% full: at ${next.compactAtPercent}% the older turns are summarised (compaction). /compact now to choose the focus, or /clear to start afresh.`,
      );
    }
    warned.current = near;
  }, [session, tick, warn]);
  return fill;
}
