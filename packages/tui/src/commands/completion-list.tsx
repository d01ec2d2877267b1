import { Box, Text } from "ink";
import { useTheme } from "../theme/theme-context.js";

export interface CompletionEntry {
  label: string;
  description?: string | undefined;
}

export interface CompletionListProps {
  entries: readonly CompletionEntry[];
  selected: number;
  /** Rows shown; the window scrolls to keep the selection visible. Default 8. */
  maxVisible?: number | undefined;
}

/** The window of `count` rows that keeps `selected` visible. */
export function visibleWindow(
  total: number,
  selected: number,
  count: number,
): { start: number; end: number } {
  const start = Math.min(Math.max(0, selected - count + 1), Math.max(0, total - count));
  return { start, end: Math.min(total, start + count) };
}

/**
 * A popup list of candidates (commands, paths): the selected one marked with "›" in the accent
 * colour, descriptions dim, "↑ N more" / "↓ N more" when the list scrolls.
 */
export function CompletionList({ entries, selected, maxVisible = 8 }: CompletionListProps) {
  const theme = useTheme();
  if (entries.length === 0) return null;
  const { start, end } = visibleWindow(entries.length, selected, maxVisible);
  const labelWidth = Math.max(...entries.slice(start, end).map((entry) => entry.label.length));
  return (
    <Box flexDirection="column">
      {start > 0 ? <Text color={theme.subtle}> ↑ {start} more</Text> : null}
      {entries.slice(start, end).map((entry, offset) => {
        const index = start + offset;
        const active = index === selected;
        return (
          <Text key={`${index}-${entry.label}`} wrap="truncate-end">
            <Text color={active ? theme.accent : theme.subtle}>{active ? "› " : "  "}</Text>
            <Text bold={active} color={active ? theme.accent : ""}>
              {entry.label.padEnd(labelWidth)}
            </Text>
            {entry.description ? <Text color={theme.muted}> {entry.description}</Text> : null}
          </Text>
        );
      })}
      {end < entries.length ? <Text color={theme.subtle}> ↓ {entries.length - end} more</Text> : null}
    </Box>
  );
}
