/** Bracketed paste on; off again with the cursor shown. */
const PASTE_ON = "\x1b[?2004h";
const RESTORE = "\x1b[?2004l\x1b[?25h";

/** Errors writing to a terminal that is gone (closed window, dropped ssh). */
const HANGUP_ERRORS = new Set(["EIO", "EPIPE", "ENXIO", "EBADF", "ENOTCONN"]);

const SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT"] as const;
const SIGNAL_NUMBERS: Readonly<Record<(typeof SIGNALS)[number], number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGTERM: 15,
};

export interface GuardProcessOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** SIGTERM, SIGINT (128 + n): quit the app the normal way. */
  onSignal: (code: number) => void;
  /** The terminal is gone (SIGHUP, or writing to it fails): quit without drawing (code 129). */
  onHangup: (code: number) => void;
  /** An uncaught error or rejection, after the terminal was restored and the error printed. */
  onCrash: (error: unknown) => void;
}

export interface ProcessGuard {
  /** Raw mode off, bracketed paste off, cursor shown; nothing is written once the terminal is gone. */
  restoreTerminal(): void;
  /** Whether the terminal is gone. */
  readonly hungUp: boolean;
  /** Removes the handlers and gives `uncaughtException` back to the listeners it had. */
  release(): void;
}

export function isHangupError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && HANGUP_ERRORS.has(code);
}

/**
 * While the app runs, the process's signals, crashes and a vanished terminal end it through the
 * app (so the session is saved) instead of killing it mid-write; the terminal is restored on every
 * way out, `process.on("exit")` included. Once the terminal is gone, writes to it are dropped
 * (each would fail with EIO and end the process before the session is saved).
 */
export function guardProcess(options: GuardProcessOptions): ProcessGuard {
  const { stdin, stdout, stderr } = options;
  let hungUp = false;
  let released = false;
  const crashListeners = process.listeners("uncaughtException");

  const restoreTerminal = () => {
    if (hungUp) return;
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
      if (stdout.isTTY) stdout.write(RESTORE);
    } catch {
      // The terminal went away meanwhile.
    }
  };
  const hangUp = () => {
    if (hungUp) return;
    hungUp = true;
    for (const stream of [stdout, stderr]) {
      if (stream.isTTY) stream.write = (() => true) as typeof stream.write;
    }
    options.onHangup(129);
  };
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    if (signal === "SIGHUP") hangUp();
    else options.onSignal(128 + SIGNAL_NUMBERS[signal]);
  };
  const onOutputError = (error: unknown) => {
    if (isHangupError(error)) hangUp();
  };
  const onCrash = (error: unknown) => {
    if (isHangupError(error)) return hangUp();
    restoreTerminal();
    if (!hungUp) {
      stderr.write(`nyz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    options.onCrash(error);
  };

  for (const signal of SIGNALS) process.on(signal, onSignal);
  // The app's handler replaces the bin's (which exits at once): the session is saved first.
  process.removeAllListeners("uncaughtException");
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  process.on("exit", restoreTerminal);
  stdout.on("error", onOutputError);
  if (stdout.isTTY) stdout.write(PASTE_ON);

  return {
    restoreTerminal,
    get hungUp() {
      return hungUp;
    },
    release() {
      if (released) return;
      released = true;
      for (const signal of SIGNALS) process.removeListener(signal, onSignal);
      process.removeListener("uncaughtException", onCrash);
      process.removeListener("unhandledRejection", onCrash);
      process.removeListener("exit", restoreTerminal);
      stdout.removeListener("error", onOutputError);
      for (const listener of crashListeners) process.on("uncaughtException", listener);
    },
  };
}
