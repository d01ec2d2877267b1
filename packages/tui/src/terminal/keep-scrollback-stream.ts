import stringWidth from "string-width";

/** Erase the scrollback (part of ink's `clearTerminal`). Never sent to the terminal. */
const ERASE_SCROLLBACK = /\x1b\[3J/g;

/**
 * The stream ink writes to: the terminal's, with ink's "erase the scrollback" (`ESC[3J`, sent with
 * its `clearTerminal` when a frame outgrows the screen) taken out, so the shell's output above `nyz`
 * and the finished transcript stay in the terminal's scrollback (issue 27). The live region itself
 * is redrawn in place by the frame writer (`frame/diffing-log-update.ts`), which rests the cursor on
 * its first row and erases from there down, never above.
 */
export function keepScrollbackStream(target: NodeJS.WriteStream): NodeJS.WriteStream {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk.replace(ERASE_SCROLLBACK, "") : chunk;
    if (text === "" && chunk !== "") return true;
    return (target.write as (...args: unknown[]) => boolean).call(target, text, ...rest);
  };
  return new Proxy(target, {
    get(object, key) {
      if (key === "write") return write;
      const value = Reflect.get(object, key, object) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/**
 * The terminal's width as the kernel has it now (`TIOCGWINSZ`), not as of the last `resize` event:
 * a frame written between the terminal's resize and the signal reaching this process wraps at the
 * new width, and the cursor must be moved by its rows there.
 */
export function terminalWidthNow(target: TerminalSize): number | undefined {
  return terminalSizeNow(target, 0) ?? target.columns;
}

/** The terminal's height as the kernel has it now (see `terminalWidthNow`). */
export function terminalHeightNow(target: TerminalSize): number | undefined {
  return terminalSizeNow(target, 1) ?? target.rows;
}

interface TerminalSize {
  columns?: number;
  rows?: number;
  getWindowSize?: () => [number, number];
}

function terminalSizeNow(target: TerminalSize, index: 0 | 1): number | undefined {
  try {
    return target.getWindowSize?.()[index] || undefined;
  } catch {
    return undefined;
  }
}

/** The rows `text` takes on a terminal `columns` wide: each line as many as it wraps into. */
export function rowsOf(text: string, columns: number | undefined): number {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const width = columns || 80;
  let rows = 0;
  for (const line of lines) rows += Math.max(1, Math.ceil(stringWidth(line) / width));
  return rows;
}
