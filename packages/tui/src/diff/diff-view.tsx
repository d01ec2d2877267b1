import { Box, Text } from "ink";
import { memo, useMemo } from "react";
import type { Theme } from "../theme/theme.js";
import { useTheme } from "../theme/theme-context.js";
import { type DiffRow, parseUnifiedDiff } from "./parse-unified-diff.js";

/** Diff lines shown before the rest is collapsed into "… +N lines". */
export const DEFAULT_DIFF_LINES = 20;

export interface DiffViewProps {
  /** Unified diff text: hunks, with or without `---`/`+++` headers. */
  diff: string;
  /** The file, shown in the header with the added/removed counts. */
  path?: string | undefined;
  created?: boolean | undefined;
  /** Rows shown while collapsed. Default 20. */
  maxLines?: number | undefined;
  expanded?: boolean | undefined;
  /** Appended to the collapsed line, naming the app's expand key (e.g. "ctrl+o to expand"). */
  expandHint?: string | undefined;
}

function rowColour(row: DiffRow, theme: Theme): string {
  switch (row.kind) {
    case "added":
      return theme.success;
    case "removed":
      return theme.danger;
    case "hunk":
      return theme.info;
    default:
      return theme.subtle;
  }
}

function marker(row: DiffRow): string {
  return row.kind === "added" ? "+" : row.kind === "removed" ? "-" : " ";
}

/**
 * A coloured unified diff: `+` lines green, `-` red, `@@` hunk headers cyan, context dim, each
 * with its line number (old file for removals, new file otherwise). Beyond `maxLines` rows the
 * rest collapses into one line unless `expanded`.
 */
export const DiffView = memo(function DiffView({
  diff,
  path,
  created = false,
  maxLines = DEFAULT_DIFF_LINES,
  expanded = false,
  expandHint,
}: DiffViewProps) {
  const theme = useTheme();
  const parsed = useMemo(() => parseUnifiedDiff(diff), [diff]);
  const rows = expanded ? parsed.rows : parsed.rows.slice(0, maxLines);
  const hidden = parsed.rows.length - rows.length;
  const gutter = Math.max(
    1,
    ...parsed.rows.map(
      (row) => String(row.kind === "removed" ? (row.oldLine ?? "") : (row.newLine ?? "")).length,
    ),
  );
  return (
    <Box flexDirection="column">
      {path !== undefined ? (
        <Box>
          <Box flexShrink={1}>
            <Text bold wrap="truncate-start">
              {path || "(file)"}
            </Text>
          </Box>
          <Box flexShrink={0}>
            <Text>
              {created ? <Text color={theme.muted}> (new file)</Text> : null}{" "}
              <Text color={theme.success}>+{parsed.added}</Text>{" "}
              <Text color={theme.danger}>-{parsed.removed}</Text>
            </Text>
          </Box>
        </Box>
      ) : null}
      {rows.map((row, index) => {
        const number = row.kind === "removed" ? row.oldLine : row.newLine;
        const colour = rowColour(row, theme);
        if (row.kind === "hunk" || row.kind === "note") {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: diff rows have no identity but their position
            <Text key={index} color={colour} wrap="truncate-end">
              {`${" ".repeat(gutter)}   ${row.text}`}
            </Text>
          );
        }
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff rows have no identity but their position
          <Text key={index} color={colour} wrap="truncate-end">
            {`${String(number ?? "").padStart(gutter)} ${marker(row)} ${row.text}`}
          </Text>
        );
      })}
      {hidden > 0 ? (
        <Text
          color={theme.subtle}
        >{`${" ".repeat(gutter)}   … +${hidden} lines${expandHint ? ` (${expandHint})` : ""}`}</Text>
      ) : null}
    </Box>
  );
});
