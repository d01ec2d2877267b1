import { Box, Static, Text, useStdout } from "ink";
import { useTheme } from "../theme/theme-context.js";
import { TranscriptItemView } from "./transcript-item-view.js";
import type { TranscriptItem, TranscriptState } from "./transcript-types.js";

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
 * The transcript: finished items (a done prefix) are written once into the terminal's
 * scrollback through ink `<Static>`, so native scroll, search and selection work on them; only
 * the items still changing (a streaming message, running tools) form the live region that
 * re-renders. Prompts queued during a turn are listed under it.
 */
export function TranscriptView({ state, width, expandHint }: TranscriptViewProps) {
  const theme = useTheme();
  const { stdout } = useStdout();
  const columns = width ?? stdout.columns ?? 80;
  const split = finishedPrefixLength(state.items);
  const finished = state.items.slice(0, split);
  const live = state.items.slice(split);
  return (
    <>
      {/* A new epoch (the transcript was cleared) starts a fresh scrollback region. */}
      <Static key={state.epoch} items={finished as TranscriptItem[]}>
        {(item) => (
          <Box key={item.id} width={columns}>
            <TranscriptItemView item={item} width={columns} expandHint={expandHint} />
          </Box>
        )}
      </Static>
      <Box flexDirection="column" width={columns}>
        {live.map((item) => (
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
