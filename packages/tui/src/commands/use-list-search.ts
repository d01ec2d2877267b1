import { useMemo, useState } from "react";
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

export interface ListSearchOptions<Match> {
  /** The matches of a query, best first. */
  filter: (query: string) => Match[];
  /** Re-filter when one of these changes (the items). */
  items: unknown;
  onEscape: () => void;
  /** Enter: the selected match (undefined when none) and the typed text, trimmed. */
  onEnter: (match: Match | undefined, typed: string) => void;
  isActive: boolean;
}

/**
 * A searchable list's query and selection (the `/` palette, the app's pickers): typing edits the
 * query and selects the first match, ↑/↓, Ctrl+P/Ctrl+N and Tab move the selection, ←/→ the cursor;
 * Esc and Enter are the caller's.
 */
export function useListSearch<Match>(options: ListSearchOptions<Match>) {
  const [query, setQuery] = useState<TextBuffer>(EMPTY_BUFFER);
  const [selected, setSelected] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's filter reads `items`.
  const matches = useMemo(() => options.filter(query.text), [options.items, query.text]);
  const update = (next: TextBuffer) => {
    setQuery(next);
    setSelected(0);
  };
  useKeypress(
    (key) => {
      if (key.name === "escape") options.onEscape();
      else if (key.name === "return") options.onEnter(matches[selected], query.text.trim());
      else if (key.name === "up" || isCtrl(key, "p")) setSelected((index) => Math.max(0, index - 1));
      else if (key.name === "down" || isCtrl(key, "n") || key.name === "tab")
        setSelected((index) => Math.min(Math.max(0, matches.length - 1), index + 1));
      else if (key.name === "backspace") update(deleteBackward(query));
      else if (key.name === "left") setQuery(moveLeft(query));
      else if (key.name === "right") setQuery(moveRight(query));
      else if (isPlainText(key)) update(insertText(query, key.text.replace(/\n/g, " ")));
    },
    { isActive: options.isActive },
  );
  return { query, selected, matches };
}
