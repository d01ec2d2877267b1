import { type MutableRefObject, useCallback, useRef, useState } from "react";
import type { ApprovalRequestView } from "../approval/approval-types.js";
import type { InputEditorHandle } from "../input/input-editor.js";
import type { Keypress } from "../keys/parse-key.js";

/** A dialog that opens within this many ms of a key typed into the input waits (is held). */
export const TYPING_PAUSE_MS = 1000;

export interface ApprovalFocus {
  /** The dialog is shown but the keys stay in the input until `take`. */
  held: boolean;
  /** The keyboard moves to the dialog (the app's answer key). */
  take(): void;
  /** A key typed at the dialog was meant for the input: it goes there, and so do the next ones. */
  stray(key: Keypress): void;
}

/**
 * Who gets the keys while approvals wait. A key typed for the input must never answer a dialog,
 * so a dialog that opens while the person is typing (the input holds text, or a key reached it
 * in the last `TYPING_PAUSE_MS`) is held: shown, with a line saying the keys stay in the input
 * and which key answers it. A dialog that opens on a quiet input takes the keys at once, and the
 * ones queued behind it keep them while the person answers. Text typed at the dialog that is
 * none of its keys (a `/command`, a word) gives the keys back to the input, with that text.
 */
export function useApprovalFocus(
  approvals: readonly ApprovalRequestView[],
  editor: MutableRefObject<InputEditorHandle | undefined>,
): ApprovalFocus {
  const mode = useRef<"input" | "dialog" | undefined>(undefined);
  const [, setTick] = useState(0);
  if (approvals.length === 0) mode.current = undefined;
  else if (mode.current === undefined) mode.current = isTyping(editor.current) ? "input" : "dialog";

  const take = useCallback(() => {
    if (mode.current !== "input") return;
    mode.current = "dialog";
    setTick((tick) => tick + 1);
  }, []);
  const stray = useCallback(
    (key: Keypress) => {
      if (mode.current !== "input") {
        mode.current = "input";
        setTick((tick) => tick + 1);
      }
      editor.current?.feed(key);
    },
    [editor],
  );
  return { held: mode.current === "input", take, stray };
}

function isTyping(editor: InputEditorHandle | undefined): boolean {
  if (!editor) return false;
  return editor.text() !== "" || Date.now() - editor.lastKeyAt() < TYPING_PAUSE_MS;
}
