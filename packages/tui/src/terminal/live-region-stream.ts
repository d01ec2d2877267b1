import stringWidth from "string-width";

/** What ink's log writes before a frame: erase the previous frame's lines, cursor to column 1. */
const ERASE_PREFIX = /^(?:\x1b\[2K(?:\x1b\[1A)?)+\x1b\[G/;
/** Erase the scrollback (part of ink's `clearTerminal`). Never sent to the terminal. */
const ERASE_SCROLLBACK = /\x1b\[3J/g;
/** Control sequences: a write of nothing else (cursor shown/hidden, synchronized output) draws no text. */
const CONTROL = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;
/** Column 1, then erase from the cursor to the end of the screen. */
const ERASE_BELOW = "\r\x1b[J";

export interface LiveRegionStream {
  /** The stream to give ink. */
  stream: NodeJS.WriteStream;
  /** Moves the cursor below the last frame (before the shell takes the terminal back). */
  release(): void;
}

/**
 * Keeps the terminal's scrollback whole across resizes by redrawing only what the app owns.
 *
 * ink draws the live region (the frame below the finished transcript) inline, leaves the cursor
 * below it, and erases it before the next frame by moving up the number of lines it wrote. When
 * the terminal gets narrower it re-wraps those lines into more rows, pushing the top ones into the
 * scrollback where no cursor move reaches, and pieces of old frames stayed behind; the app used to
 * clear the screen and the scrollback (`ESC[2J ESC[3J`) and write everything again, which also
 * erased the shell's output above `nyz`.
 *
 * Codex's TUI keeps its viewport's position and clears from the viewport's top down. This does the
 * same with ink's output: after each write it parks the cursor at the top of what it just wrote
 * (its rows at the current width), so a resize re-wraps the live region below the cursor, where
 * terminals that reflow keep the cursor's line in place; and ink's erase of the previous frame
 * becomes "erase from here to the end of the screen". Finished items written above are never
 * touched again (the terminal reflows them like any output), and `ESC[3J` never reaches the
 * terminal.
 */
export function liveRegionStream(target: NodeJS.WriteStream): LiveRegionStream {
  /** Rows between the parked cursor and the end of the last text written (0: not parked). */
  let parked = 0;

  const forward = (text: string, rest: unknown[]) =>
    (target.write as (...args: unknown[]) => boolean).call(target, text, ...rest);

  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk !== "string") return forward(chunk as string, rest);
    const text = chunk.replace(ERASE_SCROLLBACK, "");
    const prefix = ERASE_PREFIX.exec(text)?.[0] ?? "";
    const body = text.slice(prefix.length);
    const drawsText = body.replace(CONTROL, "") !== "";
    let out = "";
    if (prefix !== "") {
      // ink erases its previous frame: the cursor is parked on its top row.
      out = parked > 0 ? ERASE_BELOW : prefix;
      parked = 0;
    } else if (drawsText && parked > 0) {
      // Text after text (a finished item, then the frame): continue below the first.
      out = `\x1b[${parked}B\r`;
      parked = 0;
    }
    if (!drawsText) return out === "" && body === "" ? true : forward(out + body, rest);
    parked = rowsOf(body, widthNow(target));
    const up = body.endsWith("\n") ? parked : parked - 1;
    return forward(`${out}${body}\r${up > 0 ? `\x1b[${up}A` : ""}`, rest);
  };

  const stream = new Proxy(target, {
    get(object, key) {
      if (key === "write") return write;
      const value = Reflect.get(object, key, object) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
  return {
    stream,
    release: () => {
      if (parked > 0) target.write(`\x1b[${parked}B\r`);
      parked = 0;
    },
  };
}

/**
 * The terminal's width as the kernel has it now (`TIOCGWINSZ`), not as of the last `resize` event:
 * a frame written between the terminal's resize and the signal reaching this process wraps at the
 * new width, and the cursor must be parked by its rows there.
 */
function widthNow(target: NodeJS.WriteStream): number | undefined {
  try {
    return target.getWindowSize?.()[0] || target.columns;
  } catch {
    return target.columns;
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
