import { useEffect, useRef, useState } from "react";
import type { TranscriptState } from "../transcript/transcript-types.js";

/** The code index's latest activity as the transcript keeps it. */
export type IndexActivityView = NonNullable<TranscriptState["index"]>;

/** ms "index ready" stays on the status line after the background build ends. */
export const INDEX_READY_SHOWN_MS = 3_000;

/**
 * One formatter for every frame (`toLocaleString` builds one per call, ~0.2 ms), made on first use:
 * the first one loads ICU's data (~40 ms), which an app start without an index build never needs.
 */
let grouped: Intl.NumberFormat | undefined;
const count = (value: number) => {
  grouped ??= new Intl.NumberFormat("en-US");
  return grouped.format(value);
};

/**
 * The status line's words for the index: "indexing 1,204/3,310 files" while the background build
 * runs, "index ready" while `readyNote` is set (just after a build), "index skipped: …" with the
 * reason; nothing otherwise (re-indexing a few changed files is too quick to be worth a word).
 */
export function indexActivityLabel(
  index: IndexActivityView | undefined,
  options: { readyNote: boolean },
): string | undefined {
  switch (index?.phase) {
    case "building":
      return index.filesTotal > 0
        ? `indexing ${count(index.filesDone)}/${count(index.filesTotal)} files`
        : "indexing…";
    case "updating":
      return "updating the index…";
    case "skipped":
      return `index skipped: ${index.message ?? "the project was not indexed"}`;
    case "ready":
      return options.readyNote ? "index ready" : undefined;
    case undefined:
      return undefined;
  }
}

/**
 * True for `shownMs` after the index went from `building` to `ready`, so the end of a build is
 * seen without "index ready" staying on the line for the rest of the session.
 */
export function useIndexReadyNote(
  index: IndexActivityView | undefined,
  shownMs = INDEX_READY_SHOWN_MS,
): boolean {
  const previous = useRef(index?.phase);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const was = previous.current;
    previous.current = index?.phase;
    if (index?.phase === "ready" && was === "building") {
      setShown(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setShown(false), shownMs);
    } else if (index?.phase === "building" || index?.phase === "skipped") {
      setShown(false);
    }
  }, [index, shownMs]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return shown;
}
