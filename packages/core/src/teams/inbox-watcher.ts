import { type FSWatcher, watch } from "node:fs";
import type { Mailbox } from "./mailbox.js";

/** How often an idle member re-reads its inbox when no change notification arrives, ms. */
export const INBOX_POLL_MS = 100;

/**
 * Waits until a member's inbox has unread mail. Wakes on `fs.watch` events for the inboxes
 * directory (another process wrote), on `notify()` (a sender in this process), and otherwise
 * polls every `pollMs`, since file watching is unreliable on some file systems.
 */
export class InboxWatcher {
  private watcher: FSWatcher | undefined;
  private wakers = new Set<() => void>();

  constructor(
    private readonly mailbox: Mailbox,
    private readonly team: string,
    private readonly member: string,
    private readonly pollMs = INBOX_POLL_MS,
  ) {}

  /** Something may have arrived: re-check now. */
  notify = (): void => {
    for (const wake of [...this.wakers]) wake();
  };

  /** Resolves true once there is unread mail, false when `signal` aborts first. */
  async waitForUnread(signal: AbortSignal): Promise<boolean> {
    this.startWatching();
    while (!signal.aborted) {
      if ((await this.mailbox.unreadCount(this.team, this.member).catch(() => 0)) > 0) return true;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, this.pollMs);
        this.wakers.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
    return false;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.notify();
  }

  private startWatching(): void {
    if (this.watcher) return;
    try {
      const dir = this.mailbox.inboxDir(this.team);
      this.watcher = watch(dir, { persistent: false }, (_event, file) => {
        if (!file || String(file).startsWith(this.member)) this.notify();
      });
      this.watcher.on("error", () => {
        this.watcher?.close();
      });
    } catch {
      // Polling alone still works.
    }
  }
}
