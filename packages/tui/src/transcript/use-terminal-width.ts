import { useStdout } from "ink";
import { useEffect, useState } from "react";

/**
 * The terminal's width, re-read on each resize, so the transcript's live items are laid out
 * again at the new width. Finished items stay in the scrollback as written (the terminal reflows
 * them); nothing is cleared: the frame writer (`frame/diffing-log-update.ts`) erases only the old live region.
 * `enabled: false` (a fixed width) does not listen.
 */
export function useTerminalWidth({ enabled }: { enabled: boolean }): number | undefined {
  const { stdout } = useStdout();
  const [columns, setColumns] = useState(stdout.columns);
  useEffect(() => {
    if (!enabled) return;
    const onResize = () => setColumns(stdout.columns);
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [enabled, stdout]);
  return columns;
}
