import { Text } from "ink";
import { useEffect, useState } from "react";
import { useTheme } from "../theme/theme-context.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** One frame every 125 ms: 8 re-renders a second at most, cheap enough to leave running. */
export const SPINNER_INTERVAL_MS = 125;

/**
 * Re-renders the caller every `intervalMs` while `active`, returning the tick count. The timer
 * stops when inactive or unmounted, so finished rows cost nothing.
 */
export function useTicker(active: boolean, intervalMs = SPINNER_INTERVAL_MS): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((value) => value + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return tick;
}

/**
 * A braille spinner; `tick` comes from the parent (`useRefreshTick`, or `useTicker`), so one timer
 * drives a row.
 */
export function Spinner({ tick }: { tick: number }) {
  const theme = useTheme();
  return <Text color={theme.accent}>{FRAMES[tick % FRAMES.length]}</Text>;
}
