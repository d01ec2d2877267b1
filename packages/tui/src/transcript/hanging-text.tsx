import { Box, Text } from "ink";

export interface HangingTextProps {
  /** Put before the first line (`※ `, `✗ [scout] `); every line, wrapped or not, starts after it. */
  marker: string;
  /** One or more lines; a line's leading spaces are its indent, kept by its wrapped rows too. */
  text: string;
  color: string;
}

/**
 * Text whose wrapped rows keep their line's indent: the marker's column for every line, and each
 * line's own leading spaces for its continuation rows (a `/help` entry, a role's description under
 * its name), instead of going back to the screen's first column.
 */
export function HangingText({ marker, text, color }: HangingTextProps) {
  return (
    <Box>
      <Text color={color}>{marker}</Text>
      <Box flexDirection="column" flexShrink={1}>
        {text.split("\n").map((line, index) => {
          const indent = /^ */.exec(line)?.[0] ?? "";
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a message's lines never move.
            <Box key={index}>
              {indent ? <Box width={indent.length} flexShrink={0} /> : null}
              <Box flexShrink={1}>
                <Text color={color}>{line.slice(indent.length) || " "}</Text>
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
