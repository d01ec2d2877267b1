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
        const change = changedSpan(parsed.rows, index);
        const prefix = `${String(number ?? "").padStart(gutter)} ${marker(row)} `;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff rows have no identity but their position
          <Text key={index} color={colour} wrap="truncate-end">
            {change ? (
              <>
                {prefix}
                {row.text.slice(0, change.start)}
                <Text inverse>{row.text.slice(change.start, change.end)}</Text>
                {row.text.slice(change.end)}
              </>
            ) : (
              `${prefix}${row.text}`
            )}
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

/**
 * The part of a changed line that differs from its counterpart (a removed line and the added line
 * that replaces it, paired in order within a run of changes), to mark it inside the whole line;
 * undefined for lines without a counterpart or when the lines share nothing.
 */
export function changedSpan(
  rows: readonly DiffRow[],
  index: number,
): { start: number; end: number } | undefined {
  const row = rows[index];
  if (!row || (row.kind !== "removed" && row.kind !== "added")) return undefined;
  const isChange = (candidate: DiffRow | undefined) =>
    candidate?.kind === "removed" || candidate?.kind === "added";
  let runStart = index;
  while (runStart > 0 && isChange(rows[runStart - 1])) runStart--;
  let runEnd = index;
  while (runEnd < rows.length && isChange(rows[runEnd])) runEnd++;
  const run = rows.slice(runStart, runEnd);
  const mine = run.filter((candidate) => candidate.kind === row.kind);
  const others = run.filter((candidate) => candidate.kind !== row.kind);
  const position = mine.indexOf(row);
  const other = others[position];
  if (!other || position < 0) return undefined;
  const text = row.text;
  let start = 0;
  while (start < text.length && start < other.text.length && text[start] === other.text[start]) start++;
  let end = 0;
  while (
    end < text.length - start &&
    end < other.text.length - start &&
    text[text.length - 1 - end] === other.text[other.text.length - 1 - end]
  )
    end++;
  if (start === 0 && end === 0) return undefined;
  if (start >= text.length - end) return undefined;
  return { start, end: text.length - end };
}
