import { Box, Text } from "ink";
import { useCallback, useState } from "react";
import { useTheme } from "../theme/theme-context.js";
import type { TranscriptItem } from "../transcript/transcript-types.js";
import { searchTranscript, type TranscriptSearch } from "./transcript-search.js";

/** `/search`: the search (and its current match) over the input; Ctrl+N next, Esc clears. */
export function useTranscriptSearch(items: () => readonly TranscriptItem[]) {
  const [search, setSearch] = useState<TranscriptSearch | undefined>(undefined);
  const start = useCallback(
    (query: string) => setSearch({ query, matches: searchTranscript(items(), query), current: 0 }),
    [items],
  );
  const next = useCallback(
    () =>
      setSearch((now) =>
        now && now.matches.length > 0 ? { ...now, current: (now.current + 1) % now.matches.length } : now,
      ),
    [],
  );
  const clear = useCallback(() => setSearch(undefined), []);
  return { search, start, next, clear };
}

/** The search line: `Search "text" 2/5 · assistant: …the line…` and its keys. */
export function SearchBar({ search }: { search: TranscriptSearch | undefined }) {
  const theme = useTheme();
  if (!search) return null;
  const match = search.matches[search.current];
  return (
    <Box flexDirection="column">
      <Text color={theme.accent}>
        {match
          ? `Search "${search.query}" ${search.current + 1}/${search.matches.length} · ${match.source}: ${match.excerpt}`
          : `Search "${search.query}": no match in the transcript`}
      </Text>
      <Text color={theme.muted}>ctrl+n next match · esc clears the search</Text>
    </Box>
  );
}
