import { Box, Static, Text, useStdout } from "ink";
import { memo, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { immediateFrameGeneration, subscribeImmediateFrame } from "../keys/immediate-frame.js";
import { useTheme } from "../theme/theme-context.js";
import { TranscriptItemView } from "./transcript-item-view.js";
import type { TranscriptItem, TranscriptState } from "./transcript-types.js";
import { useTerminalWidth } from "./use-terminal-width.js";

export interface TranscriptViewProps {
  state: TranscriptState;
  /** Columns; default the terminal's width. */
  width?: number | undefined;
  /** The app's expand key, shown on collapsed diffs ("ctrl+o to expand"). */
  expandHint?: string | undefined;
}

/** How many leading items are done: they go to the scrollback and are never drawn again. */
export function finishedPrefixLength(items: readonly TranscriptItem[]): number {
  const firstLive = items.findIndex((item) => !item.done);
  return firstLive < 0 ? items.length : firstLive;
}

/**
 * Finished items written to the scrollback per frame, at most. A resumed session of a thousand
 * items is written over ten frames: drawn in one, its garbage outlives the young generation and
 * the process keeps ~140 MB more for good.
 */
export const STATIC_ITEMS_PER_FRAME = 25;

/**
 * How many live items are drawn on a terminal `rows` high: a third of it (at least 3). A live
 * region as tall as the terminal makes ink clear the screen and rewrite the whole scrollback on
 * every frame, and eight running subagents with their lines reach that on a 30-row terminal. The
 * earlier live items are counted in one line instead; each is written in full once it is done.
 */
export function liveItemLimit(rows: number | undefined): number {
  return Math.max(3, Math.floor((rows || 24) / 3));
}

/**
 * The transcript: finished items (a done prefix) are written once into the terminal's
 * scrollback through ink `<Static>`, so native scroll, search and selection work on them; only
 * the items still changing (a streaming message, running tools) form the live region that
 * re-renders. Prompts queued during a turn are listed under it.
 */
export function TranscriptView({ state, width, expandHint }: TranscriptViewProps) {
  const theme = useTheme();
  const { stdout } = useStdout();
  // A resize lays the live items out again at the new width; finished ones stay as written.
  const terminalColumns = useTerminalWidth({ enabled: width === undefined });
  const columns = width ?? terminalColumns ?? stdout.columns ?? 80;
  const split = finishedPrefixLength(state.items);
  const epoch = String(state.epoch);
  // The same array while no item finishes, so <FinishedItems> does not re-render (see there);
  // a long run of finished items (a resumed session) is written a slice per frame.
  const prefix = useRef<{ epoch: string; items: readonly TranscriptItem[] }>({ epoch: "", items: [] });
  const written = prefix.current.epoch === epoch ? prefix.current.items.length : 0;
  const upTo = Math.min(split, written + STATIC_ITEMS_PER_FRAME);
  if (prefix.current.epoch !== epoch || written !== upTo) {
    prefix.current = { epoch, items: state.items.slice(0, upTo) };
  }
  const [, setCatchUp] = useState(0);
  useEffect(() => {
    if (upTo >= split) return;
    const timer = setTimeout(() => setCatchUp((count) => count + 1), 0);
    return () => clearTimeout(timer);
  }, [upTo, split]);
  const live = state.items.slice(split);
  const hidden = Math.max(0, live.length - liveItemLimit(stdout.rows));
  // A key was pressed: re-rendering <FinishedItems> makes ink draw this frame at once.
  const keyFrame = useSyncExternalStore(subscribeImmediateFrame, immediateFrameGeneration);
  return (
    <>
      <FinishedItems
        epoch={epoch}
        items={prefix.current.items}
        keyFrame={keyFrame}
        columns={columns}
        expandHint={expandHint}
      />
      <Box flexDirection="column" width={columns}>
        {hidden > 0 ? (
          <Text color={theme.muted} wrap="truncate-end">
            … {hidden} more in progress above (each shows here once done)
          </Text>
        ) : null}
        {live.slice(hidden).map((item) => (
          <TranscriptItemView key={item.id} item={item} width={columns} expandHint={expandHint} />
        ))}
        {state.queued.map((prompt) => (
          <Text key={prompt.id} color={theme.info} wrap="truncate-end">
            ⏳ queued: {prompt.text.split("\n")[0]}
          </Text>
        ))}
      </Box>
    </>
  );
}

interface FinishedItemsProps {
  /** The transcript's epoch (a cleared transcript). */
  epoch: string;
  items: readonly TranscriptItem[];
  /** Changes after each key press (see keys/immediate-frame.ts). */
  keyFrame: number;
  columns: number;
  expandHint: string | undefined;
}

/**
 * The finished items, through ink `<Static>`. Memoised: ink draws a frame at once, outside its
 * frame-rate limit, whenever the `<Static>` box re-renders (with React 19 every re-render updates
 * its props), so a `<Static>` re-rendered by each streamed event would draw a frame per event.
 * It re-renders when an item finishes, and after a key press (`keyFrame`), to echo it at once.
 */
const FinishedItems = memo(function FinishedItems({ epoch, items, columns, expandHint }: FinishedItemsProps) {
  return (
    // A new epoch (the transcript cleared) writes the items afresh.
    <Static key={epoch} items={items as TranscriptItem[]}>
      {(item) => (
        <Box key={item.id} width={columns}>
          <TranscriptItemView item={item} width={columns} expandHint={expandHint} />
        </Box>
      )}
    </Static>
  );
});
