/** Where a command writes. Injected so tests capture output without touching process streams. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Piped input for `nyz exec`; absent in tests that give none. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

export function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
  };
}
