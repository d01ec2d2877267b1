import { readdir, readFile } from "node:fs/promises";
import type { ModelMessage } from "@nyzhi/provider";
import { expect } from "vitest";

/** Pids of live (not zombie) processes whose command line contains `text`, found through /proc. */
export async function processesRunning(text: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = (await readFile(`/proc/${entry}/cmdline`, "utf8")).replaceAll("\0", " ");
      const status = await readFile(`/proc/${entry}/stat`, "utf8");
      if (commandLine.includes(text) && !/\) Z /.test(status)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Every tool call in the thread has exactly one result, in the next message, in call order. */
export function expectConsistentHistory(thread: readonly ModelMessage[]): void {
  thread.forEach((message, index) => {
    if (message.role !== "assistant" || typeof message.content === "string") return;
    const callIds = message.content.filter((part) => part.type === "tool-call").map((part) => part.id);
    if (callIds.length === 0) return;
    const next = thread[index + 1];
    expect(next?.role).toBe("tool");
    if (next?.role === "tool") expect(next.content.map((result) => result.toolCallId)).toEqual(callIds);
  });
}
