import { createInterface } from "node:readline";
import { Writable } from "node:stream";

/**
 * Reads one line from stdin after printing `question` to stderr. With `secret`, typed characters
 * are not echoed (on a terminal). Piped stdin works too, so scripts can feed an API key.
 */
export function promptLine(question: string, options: { secret: boolean }): Promise<string> {
  process.stderr.write(question);
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) process.stderr.write(chunk);
      callback();
    },
  });
  const reader = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY === true });
  muted = options.secret;
  return new Promise((resolve) => {
    let answered = false;
    reader.once("line", (line) => {
      answered = true;
      reader.close();
      if (options.secret) process.stderr.write("\n");
      resolve(line.trim());
    });
    reader.once("close", () => {
      if (!answered) resolve("");
    });
  });
}
