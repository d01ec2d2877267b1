import { Box, Text } from "ink";
import { memo } from "react";
import { useTheme } from "../theme/theme-context.js";
import { highlightCode } from "./highlight-code.js";

export interface CodeBlockProps {
  code: string;
  /** The fence's info string (`ts`, `python` …); unknown or absent languages are shown plain. */
  language?: string | undefined;
}

/**
 * A fenced code block: the language in a dim label, then the code indented by two cells and
 * coloured by syntax (plain under `NO_COLOR`). Tabs become four spaces so columns line up.
 */
export const CodeBlock = memo(function CodeBlock({ code, language }: CodeBlockProps) {
  const theme = useTheme();
  const source = code.replaceAll("\t", "    ");
  const lines = theme.color
    ? highlightCode(source, language)
    : source.split("\n").map((line) => [{ text: line, scope: undefined }]);
  return (
    <Box flexDirection="column">
      {language ? <Text color={theme.subtle}>{language}</Text> : null}
      <Box flexDirection="column" paddingLeft={2}>
        {lines.map((spans, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
          <Text key={index}>
            {spans.length === 0 || spans.every((span) => span.text === "") ? " " : null}
            {spans.map((span, spanIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: spans have no identity but their position
              <Text key={spanIndex} color={span.scope ? theme.syntax[span.scope] : ""}>
                {span.text}
              </Text>
            ))}
          </Text>
        ))}
      </Box>
    </Box>
  );
});
