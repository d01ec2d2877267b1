/**
 * Lets a long synchronous loop give the event loop a turn every `sliceMs` milliseconds.
 *
 * The walker uses synchronous file-system calls: for tens of thousands of small files they are
 * about four times faster than promise-based ones (no thread-pool round trip per stat, open, read
 * and close). Yielding between slices keeps a terminal UI, a progress bar or an abort signal
 * responsive while it runs.
 */
export interface TimeSlicer {
  /** Whether the current slice is used up. Cheap: call it once per file. */
  due(): boolean;
  /** Waits one event-loop turn (`setImmediate`) and starts a new slice. */
  yield(): Promise<void>;
}

/** A slice of 8 ms: half a frame at 60 Hz. */
export const DEFAULT_SLICE_MS = 8;

export function createTimeSlicer(sliceMs = DEFAULT_SLICE_MS): TimeSlicer {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart >= sliceMs,
    yield: async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    },
  };
}
