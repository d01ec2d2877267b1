/** Sequences a terminal sends for keys, for `stdin.write` in component tests. */
export const KEYS = {
  enter: "\r",
  ctrlJ: "\n",
  altEnter: "\u001b\r",
  shiftEnterKitty: "\u001b[13;2u",
  escape: "\u001b",
  backspace: "\u007f",
  delete: "\u001b[3~",
  left: "\u001b[D",
  right: "\u001b[C",
  up: "\u001b[A",
  down: "\u001b[B",
  home: "\u001b[H",
  end: "\u001b[F",
  tab: "\t",
  shiftTab: "\u001b[Z",
  ctrlA: "\u0001",
  ctrlE: "\u0005",
  ctrlK: "\u000b",
  ctrlN: "\u000e",
  ctrlP: "\u0010",
  ctrlR: "\u0012",
  ctrlU: "\u0015",
  ctrlW: "\u0017",
} as const;

/**
 * Lets React commit and run effects (subscriptions, state updates) before the next step. ink's
 * root is a legacy one, whose effects React's scheduler runs in `setImmediate` tasks that yield
 * every 5 ms; on a loaded machine a 5 ms timer alone can fire between two of them (the process was
 * off the CPU, so wall time passed without work). The immediates queued after the timer run after
 * any the scheduler queued before them, so a yielding render finishes first.
 */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Writes each chunk to stdin as one read from the terminal, letting the app settle between
 * them. A lone Esc is held by ink until it knows no sequence follows, so it waits longer.
 */
export async function press(stdin: { write: (data: string) => void }, ...chunks: string[]): Promise<void> {
  await settle();
  for (const chunk of chunks) {
    stdin.write(chunk);
    await (chunk === KEYS.escape ? new Promise((resolve) => setTimeout(resolve, 20)) : settle());
  }
}
