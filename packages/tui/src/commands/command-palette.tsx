import { Box, Text } from "ink";
import { BufferText } from "../input/buffer-text.js";
import { useTheme } from "../theme/theme-context.js";
import { filterCommands, type SlashCommand } from "./command-registry.js";
import { CompletionList } from "./completion-list.js";
import { useListSearch } from "./use-list-search.js";

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
  const { query, selected, matches } = useListSearch({
    filter: (text) => filterCommands(commands, text),
    items: commands,
    onEscape: onClose,
    onEnter: (match) => {
      if (match) onSelect(match.item);
    },
    isActive,
  });

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
