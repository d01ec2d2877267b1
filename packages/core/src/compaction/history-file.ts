import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ModelMessage } from "@nyzhi/provider";
import { ensureContextIgnored } from "./context-dirs.js";

/**
 * Saves a whole thread as JSONL (one `ModelMessage` per line) to `<dir>/<session>-<n>.jsonl`,
 * `n` being one more than the highest already there, so every compaction of a session keeps its
 * own file. Returns the path.
 */
export async function saveThreadHistory(
  thread: readonly ModelMessage[],
  options: { dir: string; sessionId: string },
): Promise<string> {
  await ensureContextIgnored(options.dir);
  await mkdir(options.dir, { recursive: true });
  const stem = options.sessionId.replace(/[^A-Za-z0-9_.-]/g, "_") || "session";
  const body = thread.map((message) => JSON.stringify(message)).join("\n") + (thread.length > 0 ? "\n" : "");
  let number = await highestNumber(options.dir, stem);
  for (;;) {
    number += 1;
    const path = join(options.dir, `${stem}-${number}.jsonl`);
    try {
      await writeFile(path, body, { encoding: "utf8", flag: "wx" });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

async function highestNumber(dir: string, stem: string): Promise<number> {
  const pattern = new RegExp(`^${stem.replace(/[.]/g, "\\.")}-(\\d+)\\.jsonl$`);
  let highest = 0;
  for (const entry of await readdir(dir)) {
    const match = pattern.exec(entry);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}
