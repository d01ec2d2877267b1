/** One frame at 60 Hz (ms). */
export const FRAME_MS = 16;

export interface EventBatcher<Item> {
  /** Queues an item; the queue is flushed at most `intervalMs` after its first item. */
  push(item: Item): void;
  /** Flushes what is queued now (an approval or the end of a turn need not wait). */
  flush(): void;
  /** Flushes what is queued and stops; later pushes are dropped. */
  close(): void;
}

/**
 * Collects items (agent events) and hands them to `flush` as one array per frame, so eight agents
 * streaming 50 chunks a second make one state update and one render per frame instead of 400.
 * `flush` runs from a timer; an error it throws is the caller's to catch.
 */
export function createEventBatcher<Item>(
  flush: (items: Item[]) => void,
  options: { intervalMs?: number } = {},
): EventBatcher<Item> {
  const intervalMs = options.intervalMs ?? FRAME_MS;
  let queue: Item[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const drain = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    flush(items);
  };

  return {
    push(item) {
      if (closed) return;
      queue.push(item);
      timer ??= setTimeout(drain, intervalMs);
    },
    flush: drain,
    close() {
      drain();
      closed = true;
    },
  };
}
