import { readStdinFile } from "../headless/read-input.js";

/** Where a command writes. Injected so tests capture output without touching process streams. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Piped input for `nyz exec`; absent in tests that give none. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * All of stdin at once when it is a file or /dev/null (no stream needed), undefined when it
   * must be streamed (a pipe, a terminal, a socket).
   */
  stdinFileText?: () => string | undefined;
  /**
   * Whether stdout and stderr are terminals (absent: neither). `nyz run`/`exec` print the final
   * answer on stdout unless both are, where the streamed text has already shown it.
   */
  isTerminal?: { stdout: boolean; stderr: boolean };
}

export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    // On first use only: creating process.stdin costs a stream most commands never read.
    get stdin() {
      return process.stdin;
    },
    stdinFileText: () => readStdinFile(0),
    get isTerminal() {
      return { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true };
    },
  };
}
