/**
 * An unbounded async queue: producers `push`, one consumer iterates. Lets concurrent work
 * (parallel tools streaming output) feed one async generator of events.
 */
export class EventQueue<Item> implements AsyncIterable<Item> {
  private readonly items: Item[] = [];
  private waiting: ((result: IteratorResult<Item>) => void) | undefined;
  private closed = false;

  push(item: Item): void {
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  /** Ends iteration once the queued items are consumed. */
  close(): void {
    this.closed = true;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<Item> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
    };
  }
}
