import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** How long the width must hold still before the transcript is drawn again, ms. */
export const REFLOW_DEBOUNCE_MS = 150;

/** Clears the screen and the scrollback, cursor home (what ink's `clearTerminal` writes). */
export const CLEAR_TERMINAL = "\x1b[2J\x1b[3J\x1b[H";

/**
 * Redraws the transcript at the terminal's new width once a resize settles: clears the screen and
 * the scrollback and returns a new generation, which remounts `<Static>` so every finished item
 * is written again at the new width. Without it, a narrower terminal re-wraps the last frame into
 * more rows than ink erases, leaving pieces of it behind, and the scrollback keeps lines drawn for
 * the old width. gemini-cli does the same. `enabled: false` (a fixed width) never redraws.
 */
export function useReflowOnResize({ enabled }: { enabled: boolean }): number {
  const { stdout } = useStdout();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let width = stdout.columns;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (stdout.columns === width) return;
        width = stdout.columns;
        stdout.write(CLEAR_TERMINAL);
        setGeneration((current) => current + 1);
      }, REFLOW_DEBOUNCE_MS);
    };
    stdout.on("resize", onResize);
    return () => {
      clearTimeout(timer);
      stdout.off("resize", onResize);
    };
  }, [enabled, stdout]);
  return generation;
}
