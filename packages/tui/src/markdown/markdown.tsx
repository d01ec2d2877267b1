import { createRequire } from "node:module";
import { getLogger } from "@nyzhi/config";
import { Box, Text, useStdout } from "ink";
import type { marked as Marked, Token, Tokens } from "marked";
import { memo, type ReactNode, useMemo } from "react";
import type { Theme } from "../theme/theme.js";
import { useTheme } from "../theme/theme-context.js";
import { CodeBlock } from "./code-block.js";
import { layoutTable } from "./layout-table.js";
import { inlineText, renderInline } from "./markdown-inline.js";

export interface MarkdownProps {
  /** Markdown source; may be a prefix of a message still streaming (an open fence is code). */
  text: string;
  /** Columns available; default the terminal's width. */
  width?: number | undefined;
}

let loadedMarked: typeof Marked | undefined;

/**
 * Loads marked on its first use: its module builds every grammar's regular expressions when it is
 * evaluated (~15 ms here, a third of evaluating the app's bundle), and a new session has no
 * markdown to draw until its first answer. The literal `require("marked")` is for the app's bundle
 * (nyz's `dist/app.cjs`), which carries marked and runs it only here; unbundled ES modules have no
 * `require` and use Node's.
 */
function markedLexer(): typeof Marked {
  if (!loadedMarked) {
    const module = (typeof require === "function" ? require("marked") : requireMarkedUnbundled()) as {
      marked: typeof Marked;
    };
    loadedMarked = module.marked;
  }
  return loadedMarked;
}

/**
 * Outside the bundle marked, an ES module, is loaded with `require`, which Node does from 20.19 on;
 * on an older Node this throws, and lexMarkdown shows the text as a plain paragraph.
 */
function requireMarkedUnbundled(): unknown {
  return createRequire(import.meta.url)("marked");
}

/** Lexes markdown into block tokens (GFM: tables, task lists, strikethrough). */
export function lexMarkdown(text: string): Token[] {
  try {
    return markedLexer().lexer(text, { gfm: true });
  } catch (error) {
    getLogger().debug({ error: String(error) }, "markdown lexing failed; shown as plain text");
    return [{ type: "paragraph", raw: text, text, tokens: [{ type: "text", raw: text, text }] }];
  }
}

/**
 * Renders markdown: headings, emphasis, inline code, links, nested and ordered lists, task
 * lists, tables fitted to the width, block quotes, rules, and code fences with syntax colours.
 * Each top-level block is memoized on its source, so while a message streams only its last block
 * re-renders.
 */
export function Markdown({ text, width }: MarkdownProps) {
  const theme = useTheme();
  const { stdout } = useStdout();
  const columns = Math.max(10, width ?? stdout.columns ?? 80);
  const tokens = useMemo(
    () => lexMarkdown(text).filter((token) => token.type !== "space" && token.type !== "def"),
    [text],
  );
  return (
    <Box flexDirection="column" width={columns}>
      {tokens.map((token, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a block is its position; streaming only grows the last
        <Box key={`${index}-${token.type}`} marginTop={index === 0 ? 0 : 1}>
          <MarkdownBlock source={token.raw} token={token} width={columns} theme={theme} />
        </Box>
      ))}
    </Box>
  );
}

interface BlockProps {
  source: string;
  token: Token;
  width: number;
  theme: Theme;
}

const MarkdownBlock = memo(
  function MarkdownBlock({ token, width, theme }: BlockProps) {
    return <>{renderBlock(token, width, theme, "b")}</>;
  },
  (previous, next) =>
    previous.source === next.source && previous.width === next.width && previous.theme === next.theme,
);

function renderBlocks(tokens: readonly Token[], width: number, theme: Theme, key: string): ReactNode {
  const blocks = tokens.filter((token) => token.type !== "space" && token.type !== "checkbox");
  return (
    <Box flexDirection="column">
      {blocks.map((token, index) => renderBlock(token, width, theme, `${key}-${index}`))}
    </Box>
  );
}

function renderBlock(token: Token, width: number, theme: Theme, key: string): ReactNode {
  switch (token.type) {
    case "heading":
      return (
        <Text key={key} bold color={token.depth <= 2 ? theme.accent : ""} underline={token.depth === 1}>
          {renderInline(token.tokens ?? [], theme, key)}
        </Text>
      );
    case "paragraph":
    case "text":
      return (
        <Text key={key}>{renderInline((token.tokens as Token[] | undefined) ?? [token], theme, key)}</Text>
      );
    case "code":
      return <CodeBlock key={key} code={token.text} language={token.lang} />;
    case "list":
      return renderList(token as Tokens.List, width, theme, key);
    case "blockquote":
      return (
        <Box
          key={key}
          borderStyle="single"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderColor={theme.subtle}
          paddingLeft={1}
        >
          {renderBlocks(token.tokens ?? [], width - 2, theme, key)}
        </Box>
      );
    case "hr":
      return (
        <Text key={key} color={theme.subtle}>
          {"─".repeat(Math.min(width, 40))}
        </Text>
      );
    case "table":
      return renderTable(token as Tokens.Table, width, theme, key);
    case "html":
      return <Text key={key}>{token.raw.trimEnd()}</Text>;
    default:
      return <Text key={key}>{token.raw.trimEnd()}</Text>;
  }
}

function renderList(list: Tokens.List, width: number, theme: Theme, key: string): ReactNode {
  const start = typeof list.start === "number" ? list.start : 1;
  const markers = list.items.map((item, index) => {
    const bullet = list.ordered ? `${start + index}.` : "•";
    return item.task ? `${bullet} ${item.checked ? "☑" : "☐"}` : bullet;
  });
  const markerWidth = Math.max(...markers.map((marker) => marker.length)) + 1;
  return (
    <Box key={key} flexDirection="column">
      {list.items.map((item, index) => (
        // A loose list (blank lines between its items) keeps them, as the streamed answer does:
        // it goes to the scrollback one item at a time (transcript/split-streaming-text.ts).
        // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their position
        <Box key={`${key}-${index}`} flexDirection="row" marginTop={list.loose && index > 0 ? 1 : 0}>
          <Box width={markerWidth} flexShrink={0}>
            <Text color={theme.muted}>{markers[index]}</Text>
          </Box>
          <Box flexDirection="column" flexShrink={1} flexGrow={1}>
            {renderBlocks(item.tokens, width - markerWidth, theme, `${key}-${index}`)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function renderTable(table: Tokens.Table, width: number, theme: Theme, key: string): ReactNode {
  const layout = layoutTable(
    table.header.map((cell) => inlineText(cell.tokens)),
    table.rows.map((row) => row.map((cell) => inlineText(cell.tokens))),
    table.align,
    width,
  );
  return (
    <Box key={key} flexDirection="column">
      <Text bold>{layout.header}</Text>
      <Text color={theme.subtle}>{layout.rule}</Text>
      {layout.rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
        <Text key={index}>{row}</Text>
      ))}
    </Box>
  );
}
