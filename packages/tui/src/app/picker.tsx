import { Box, Text } from "ink";
import { CompletionList } from "../commands/completion-list.js";
import { useListSearch } from "../commands/use-list-search.js";
import { fuzzyFilter } from "../fuzzy/fuzzy-match.js";
import { BufferText } from "../input/buffer-text.js";
import { useTheme } from "../theme/theme-context.js";

export interface PickerItem {
  label: string;
  description?: string | undefined;
  value: string;
}

/** A list to choose from (`/model`, `/sessions`). */
export interface PickerSpec {
  title: string;
  items: readonly PickerItem[];
  onPick(value: string): void | Promise<void>;
  /** Enter on a search that matches nothing picks the typed text itself (a model id). */
  allowFree?: boolean | undefined;
}

export interface PickerProps {
  picker: PickerSpec;
  onClose: () => void;
  isActive?: boolean | undefined;
  maxVisible?: number | undefined;
}

/**
 * A searchable list: type to filter (fuzzy, every letter is typed), ↑/↓ or Ctrl+P/Ctrl+N move,
 * Enter picks (or, with `allowFree`, takes the typed text when nothing matches), Esc closes.
 */
export function Picker({ picker, onClose, isActive = true, maxVisible = 10 }: PickerProps) {
  const theme = useTheme();
  const { query, selected, matches } = useListSearch({
    filter: (text) => fuzzyFilter(picker.items, text, (item) => `${item.label} ${item.value}`),
    items: picker.items,
    onEscape: onClose,
    onEnter: (match, typed) => {
      if (match) void picker.onPick(match.item.value);
      else if (picker.allowFree && typed !== "") void picker.onPick(typed);
      else return;
      onClose();
    },
    isActive,
  });

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text color={theme.muted}>{picker.title}</Text>
      <BufferText
        buffer={query}
        prompt="› "
        placeholder={picker.allowFree ? "type to search, or an id" : "type to search"}
      />
      {matches.length === 0 ? (
        <Text color={theme.subtle}>
          {picker.allowFree && query.text.trim() !== ""
            ? `enter: use "${query.text.trim()}"`
            : "Nothing matches"}
        </Text>
      ) : (
        <CompletionList
          entries={matches.map((match) => ({ label: match.item.label, description: match.item.description }))}
          selected={selected}
          maxVisible={maxVisible}
        />
      )}
    </Box>
  );
}
