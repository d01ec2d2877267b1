import { useStdin } from "ink";
import { useEffect, useRef } from "react";
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
    const onInput = (data: string) => handlerRef.current(parseKey(data));
    emitter.on("input", onInput);
    return () => {
      emitter.removeListener("input", onInput);
    };
  }, [active, emitter]);
}
