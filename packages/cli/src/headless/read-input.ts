import { fstatSync, readFileSync, statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { NyzhiError } from "@nyzhi/config";

/**
 * The whole input when file descriptor `fd` is a regular file (`nyz exec < prompt.txt`) or
 * /dev/null (scripts and CI often give that): read synchronously, no stream set up. Undefined for
 * anything that must be streamed or waited for (a pipe, a terminal, a socket) or cannot be checked.
 */
export function readStdinFile(fd: number): string | undefined {
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) {
      if (stats.size > MAX_STDIN_BYTES) throw tooLargeStdin();
      return readFileSync(fd, "utf8");
    }
    if (stats.isCharacterDevice() && devNullDevice() === stats.rdev) return "";
  } catch (error) {
    if (error instanceof NyzhiError) throw error;
    // not a descriptor we can inspect: stream it
  }
  return undefined;
}

/** Larger piped input is refused: no model takes it, and /dev/zero would fill the memory. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

function tooLargeStdin(): NyzhiError {
  return new NyzhiError(
    "usage",
    `stdin holds more than ${MAX_STDIN_BYTES / 1024 / 1024} MiB; pass a smaller input, or name the file in the prompt so the agent reads what it needs`,
  );
}

function devNullDevice(): number | undefined {
  try {
    return statSync("/dev/null").rdev;
  } catch {
    return undefined;
  }
}

/**
 * Reads all of stdin when it is piped (not a terminal); "" otherwise. With `idleMs`, gives up when
 * no data has arrived by then (a prompt was given on the command line and the caller left stdin
 * open without writing to it); once data arrives it reads to the end.
 */
export async function readPipedStdin(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  options: { idleMs?: number } = {},
): Promise<string> {
  if (stdin.isTTY) return "";
  return new Promise((resolve, reject) => {
    let text = "";
    let started = false;
    const timer =
      options.idleMs === undefined
        ? undefined
        : setTimeout(() => {
            if (started) return;
            cleanup();
            resolve("");
          }, options.idleMs);
    // One decoder for the whole input: a character split across two chunks stays whole.
    const decoder = new StringDecoder("utf8");
    let bytes = 0;
    const onData = (chunk: string | Buffer) => {
      started = true;
      bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
      if (bytes > MAX_STDIN_BYTES) {
        cleanup();
        (stdin as NodeJS.ReadStream).destroy?.();
        reject(tooLargeStdin());
        return;
      }
      text += typeof chunk === "string" ? chunk : decoder.write(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(text + decoder.end());
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      stdin.off("error", onError);
      // Let go of a stdin nobody writes to, so it does not keep the process alive.
      if (!started) (stdin as NodeJS.ReadStream).destroy?.();
    };
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.on("error", onError);
  });
}
