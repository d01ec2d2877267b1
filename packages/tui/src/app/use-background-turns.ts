import type { TurnEndReason, TurnInput } from "@nyzhi/core";
import { useCallback, useRef, useState } from "react";
import type { TranscriptInput } from "../transcript/transcript-types.js";

/**
 * A turn the user sent to the background (Ctrl+B). The lead runs one turn at a time, so it is the
 * same turn, only detached from the input: its events still reach the transcript and the agents
 * panel, its approvals the dialog; prompts typed meanwhile wait and run as the next turn.
 */
export interface BackgroundTurn {
  /** 1, 2, … in the order they were sent to the background. */
  id: number;
  /** What the user sent (as shown). */
  prompt: string;
  /** When the turn started, ms since epoch. */
  startedAt: number;
  /** When it ended, ms since epoch; undefined while it runs. */
  endedAt: number | undefined;
  /** How it ended (`error`: it threw). */
  reason: TurnEndReason | "error" | undefined;
}

export interface BackgroundTurns {
  /** Every turn sent to the background this app session, newest first. */
  list: readonly BackgroundTurn[];
  /** Whether the running turn is detached now. */
  detached(): boolean;
  /** Detaches the running turn, which started at `startedAt` with `prompt`. */
  detach(prompt: string, startedAt: number): void;
  /** The running turn ended: if it was detached, its record says how and the transcript says so. */
  ended(reason: NonNullable<BackgroundTurn["reason"]>): void;
  /** A prompt sent while the turn runs detached (or one with images): it waits for the turn to end. */
  hold(entry: HeldPrompt): void;
  /** The prompts held so far (emptied). */
  takeHeld(): HeldPrompt[];
}

/** A prompt waiting for the running turn to end: its input, and how the transcript shows it. */
export interface HeldPrompt {
  input: TurnInput;
  display: string;
  chips?: readonly string[] | undefined;
}

/** The bookkeeping of background turns for `useSession` (which starts and aborts the turns). */
export function useBackgroundTurns(dispatch: (input: TranscriptInput) => void): BackgroundTurns {
  const [list, setList] = useState<readonly BackgroundTurn[]>([]);
  const current = useRef<BackgroundTurn | undefined>(undefined);
  const held = useRef<HeldPrompt[]>([]);
  const count = useRef(0);

  const detach = useCallback((prompt: string, startedAt: number) => {
    if (current.current) return;
    count.current += 1;
    const record: BackgroundTurn = {
      id: count.current,
      prompt,
      startedAt,
      endedAt: undefined,
      reason: undefined,
    };
    current.current = record;
    setList((turns) => [record, ...turns]);
  }, []);

  const ended = useCallback(
    (reason: NonNullable<BackgroundTurn["reason"]>) => {
      const record = current.current;
      if (!record) return;
      current.current = undefined;
      const done: BackgroundTurn = { ...record, endedAt: Date.now(), reason };
      setList((turns) => turns.map((entry) => (entry.id === record.id ? done : entry)));
      dispatch({
        type: "app-notice",
        message: `Background turn #${record.id} ended (${reason}): ${record.prompt}`,
      });
    },
    [dispatch],
  );

  const detached = useCallback(() => current.current !== undefined, []);
  const hold = useCallback((entry: HeldPrompt) => {
    held.current.push(entry);
  }, []);
  const takeHeld = useCallback(() => held.current.splice(0), []);
  return { list, detached, detach, ended, hold, takeHeld };
}
