import { Box, Text } from "ink";
import { useMemo, useState } from "react";
import { BufferText } from "../input/buffer-text.js";
import {
  deleteBackward,
  EMPTY_BUFFER,
  insertText,
  moveLeft,
  moveRight,
  type TextBuffer,
} from "../input/text-buffer.js";
import { isCtrl, isPlainText } from "../keys/parse-key.js";
import { useKeypress } from "../keys/use-keypress.js";
import { useTheme } from "../theme/theme-context.js";
import { filterCommands, type SlashCommand } from "./command-registry.js";
import { CompletionList } from "./completion-list.js";

export interface CommandPaletteProps<Handler> {
  commands: readonly SlashCommand<Handler>[];
  onSelect: (command: SlashCommand<Handler>) => void;
  onClose: () => void;
  isActive?: boolean | undefined;
  /** Rows of commands shown. Default 10. */
  maxVisible?: number | undefined;
}

/**
 * The command palette (Ctrl+K): a search line and the commands matching it, best first. Every
 * printable key goes into the search (`j` and `k` included); ↑/↓ or Ctrl+P/Ctrl+N move, Enter
 * picks, Esc closes.
 */
export function CommandPalette<Handler>({
  commands,
  onSelect,
  onClose,
  isActive = true,
  maxVisible = 10,
}: CommandPaletteProps<Handler>) {
  const theme = useTheme();
  const [query, setQuery] = useState<TextBuffer>(EMPTY_BUFFER);
  const [selected, setSelected] = useState(0);
  const matches = useMemo(() => filterCommands(commands, query.text), [commands, query.text]);
  const update = (next: TextBuffer) => {
    setQuery(next);
    setSelected(0);
  };

  useKeypress(
    (key) => {
      if (key.name === "escape") onClose();
      else if (key.name === "return") {
        const match = matches[selected];
        if (match) onSelect(match.item);
      } else if (key.name === "up" || isCtrl(key, "p")) setSelected((index) => Math.max(0, index - 1));
      else if (key.name === "down" || isCtrl(key, "n") || key.name === "tab")
        setSelected((index) => Math.min(matches.length - 1, index + 1));
      else if (key.name === "backspace") update(deleteBackward(query));
      else if (key.name === "left") setQuery(moveLeft(query));
      else if (key.name === "right") setQuery(moveRight(query));
      else if (isPlainText(key)) update(insertText(query, key.text.replace(/\n/g, " ")));
    },
    { isActive },
  );

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text color={theme.muted}>Commands</Text>
      <BufferText buffer={query} prompt="› " placeholder="type to search" />
      {matches.length === 0 ? (
        <Text color={theme.subtle}>No command matches</Text>
      ) : (
        <CompletionList
          entries={matches.map((match) => ({
            label: `/${match.item.name}`,
            description: match.item.description,
          }))}
          selected={selected}
          maxVisible={maxVisible}
        />
      )}
    </Box>
  );
}
