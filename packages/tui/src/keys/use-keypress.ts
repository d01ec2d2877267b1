import { useStdin } from "ink";
import { useEffect, useRef } from "react";
import { requestImmediateFrame } from "./immediate-frame.js";
import { noteKeypress } from "./input-priority.js";
import { type Keypress, parseKey } from "./parse-key.js";

export interface UseKeypressOptions {
  /** When false the handler gets nothing (another component owns the keyboard). Default true. */
  isActive?: boolean;
}

/**
 * Calls `handler` with each key press. Reads the sequences ink's input parser emits (escape
 * sequences whole, typed or pasted text as one chunk) and parses them with `parseKey`, so
 * Backspace and Delete differ and modified Enter keys are seen.
 */
export function useKeypress(handler: (keypress: Keypress) => void, options: UseKeypressOptions = {}): void {
  const { setRawMode, internal_eventEmitter: emitter } = useStdin();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const active = options.isActive !== false;

  useEffect(() => {
    if (!active) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [active, setRawMode]);

  useEffect(() => {
    if (!active) return;
    const onInput = (data: string) => {
      noteKeypress();
      for (const piece of splitKeys(data)) handlerRef.current(parseKey(piece));
      requestImmediateFrame();
    };
    emitter.on("input", onInput);
    return () => {
      emitter.removeListener("input", onInput);
    };
  }, [active, emitter]);
}

/**
 * Text and a control key that arrive in one read (fast typing, `tmux send-keys`, a slow link, a
 * terminal without bracketed paste) are separate keys: `"hi\r"` is `hi`, then Enter, and
 * `"\x15/exit"` is Ctrl+U, then `/exit` (not text holding an invisible `\x15`). Tab and line
 * feeds stay in the text (pasted text holds them); a CR LF pair is a line break of pasted text, not
 * an Enter. A bracketed paste is framed by its own sequences, and the editor joins the pieces
 * inside it back into lines.
 */
export function splitKeys(data: string): string[] {
  if (data.length <= 1 || data.startsWith("\x1b") || !CONTROL_KEY.test(data)) return [data];
  if (isUnbracketedPaste(data)) return [data.replace(/\r\n?/g, "\n")];
  return data.split(CONTROL_KEY_SPLIT).filter((piece) => piece !== "");
}

/**
 * A paste from a terminal without bracketed paste: lines of text joined by CRs in one read, with no
 * other control key. Three lines or more (or over 200 characters) are taken as pasted text, its CRs
 * as line breaks, so each line is not sent on its own; fewer could be keys typed ahead of a busy app
 * (`hi`, Enter, `there`), which stay keys.
 */
function isUnbracketedPaste(data: string): boolean {
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(data)) return false;
  const lines = data.split(/\r\n?|\n/).filter((line) => line !== "");
  if (lines.length < 2 || !/[^\r\n]\r(?!\n)[^\r\n]/.test(data)) return false;
  return lines.length >= 3 || data.length > 200;
}

/** C0 controls but Tab, LF and a CR before LF; and Backspace (DEL). */
const CONTROL_KEY = /[\x00-\x08\x0b-\x0c\x0e-\x1a\x1c-\x1f\x7f]|\r(?!\n)/;
const CONTROL_KEY_SPLIT = new RegExp(`(${CONTROL_KEY.source})`);
