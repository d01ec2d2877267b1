import { Box, Text } from "ink";
import { useTheme } from "../theme/theme-context.js";
import { nextBoundary, type TextBuffer } from "./text-buffer.js";

export interface BufferTextProps {
  buffer: TextBuffer;
  /** Draw the cursor (inverse cell). */
  focused?: boolean | undefined;
  /** Shown dim when the text is empty. */
  placeholder?: string | undefined;
  /** Before the first line (e.g. "› "); later lines are indented by as many cells. */
  prompt?: string | undefined;
}

/**
 * Draws a text buffer line by line with its cursor as an inverse cell over the grapheme under
 * it (a space at the end of a line), so a wide character shows a two-cell cursor.
 */
export function BufferText({ buffer, focused = true, placeholder, prompt = "" }: BufferTextProps) {
  const theme = useTheme();
  const indent = " ".repeat(prompt.length);
  if (buffer.text === "") {
    return (
      <Text>
        <Text color={theme.accent}>{prompt}</Text>
        {focused ? <Text inverse>{placeholder?.[0] ?? " "}</Text> : null}
        <Text color={theme.subtle}>{focused ? (placeholder?.slice(1) ?? "") : (placeholder ?? "")}</Text>
      </Text>
    );
  }
  const lines = buffer.text.split("\n");
  let offset = 0;
  return (
    <Box flexDirection="column">
      {lines.map((line, row) => {
        const start = offset;
        offset += line.length + 1;
        const lead = row === 0 ? <Text color={theme.accent}>{prompt}</Text> : indent;
        const hasCursor = focused && buffer.cursor >= start && buffer.cursor <= start + line.length;
        if (!hasCursor) {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
            <Text key={row}>
              {lead}
              {line === "" ? " " : line}
            </Text>
          );
        }
        const at = buffer.cursor - start;
        const end = at >= line.length ? at : nextBoundary(line, at);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
          <Text key={row}>
            {lead}
            {line.slice(0, at)}
            <Text inverse>{end > at ? line.slice(at, end) : " "}</Text>
            {line.slice(end)}
          </Text>
        );
      })}
    </Box>
  );
}
