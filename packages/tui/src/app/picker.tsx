import { Box, Text } from "ink";
import { useMemo, useState } from "react";
import { CompletionList } from "../commands/completion-list.js";
import { fuzzyFilter } from "../fuzzy/fuzzy-match.js";
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
  const [query, setQuery] = useState<TextBuffer>(EMPTY_BUFFER);
  const [selected, setSelected] = useState(0);
  const matches = useMemo(
    () => fuzzyFilter(picker.items, query.text, (item) => `${item.label} ${item.value}`),
    [picker.items, query.text],
  );
  const update = (next: TextBuffer) => {
    setQuery(next);
    setSelected(0);
  };

  useKeypress(
    (key) => {
      if (key.name === "escape") onClose();
      else if (key.name === "return") {
        const match = matches[selected];
        const typed = query.text.trim();
        if (match) void picker.onPick(match.item.value);
        else if (picker.allowFree && typed !== "") void picker.onPick(typed);
        else return;
        onClose();
      } else if (key.name === "up" || isCtrl(key, "p")) setSelected((index) => Math.max(0, index - 1));
      else if (key.name === "down" || isCtrl(key, "n") || key.name === "tab")
        setSelected((index) => Math.min(Math.max(0, matches.length - 1), index + 1));
      else if (key.name === "backspace") update(deleteBackward(query));
      else if (key.name === "left") setQuery(moveLeft(query));
      else if (key.name === "right") setQuery(moveRight(query));
      else if (isPlainText(key)) update(insertText(query, key.text.replace(/\n/g, " ")));
    },
    { isActive },
  );

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
