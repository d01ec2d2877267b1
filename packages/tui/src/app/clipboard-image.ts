import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Programs that hand over the clipboard's image as PNG bytes on stdout, tried in order. */
const READERS: readonly { command: string; args: readonly string[] }[] = [
  { command: "wl-paste", args: ["--no-newline", "--type", "image/png"] },
  { command: "xclip", args: ["-selection", "clipboard", "-target", "image/png", "-out"] },
  { command: "pngpaste", args: ["-"] },
];

/** Larger clipboard images are refused (no model takes them). */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { encoding: "buffer", maxBuffer: MAX_IMAGE_BYTES, timeout: 5000, env },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

let pasted = 0;

/**
 * Ctrl+V: the image on the system clipboard, saved as a PNG in the temp folder (the terminal
 * itself passes only text). Undefined when no reader is installed or the clipboard holds no image.
 */
export async function readClipboardImage(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const reader of READERS) {
    const bytes = await run(reader.command, reader.args, env);
    if (!bytes || bytes.length === 0 || !bytes.subarray(0, 4).equals(PNG_SIGNATURE)) continue;
    pasted += 1;
    const path = join(tmpdir(), `nyzhi-clipboard-${process.pid}-${pasted}.png`);
    await writeFile(path, bytes, { mode: 0o600 });
    return path;
  }
  return undefined;
}
