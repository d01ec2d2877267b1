import { Text } from "ink";
import { useTheme } from "../theme/theme-context.js";
import { useRefreshTick } from "../tools/refresh-clock.js";
import { Spinner } from "../tools/spinner.js";

/** After this long without a word from the model, the line says so (ms). */
export const SILENCE_NOTICE_MS = 30_000;

export interface WorkingLineProps {
  /** When the prompt was sent (`Date.now()`). */
  since: number;
  /** When the lead's stream last said anything (an event), or `since`. */
  lastActivityAt: () => number;
  /** The provider waited on, named in the silence notice. */
  provider: string;
  /** Ms of silence before the notice. Default 30 s. */
  silenceMs?: number | undefined;
}

/**
 * The sign of life while a turn runs: a spinner and the time since Enter, from the first moment
 * (before the model's first byte); once nothing has come for `silenceMs`, "no answer from
 * <provider> for 30 s; Esc to stop". Drawn only while a turn runs, on the app's refresh clock.
 */
export function WorkingLine({
  since,
  lastActivityAt,
  provider,
  silenceMs = SILENCE_NOTICE_MS,
}: WorkingLineProps) {
  const theme = useTheme();
  const tick = useRefreshTick(true);
  const now = Date.now();
  const elapsed = Math.floor((now - since) / 1000);
  const silent = now - lastActivityAt();
  return (
    <Text wrap="truncate-end">
      <Spinner tick={Math.floor(tick / 2)} />
      <Text color={theme.muted}> working · {formatElapsed(elapsed)}</Text>
      {silent >= silenceMs ? (
        <Text color={theme.warning}>
          {" "}
          · no answer from {provider} for {Math.floor(silent / 1000)} s; esc to stop
        </Text>
      ) : null}
    </Text>
  );
}

function formatElapsed(seconds: number): string {
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}
