import { readFile, stat } from "node:fs/promises";
import { ConfigError } from "../base/config-error.js";
import { errorMessage } from "../base/errors.js";

/** A config file's text and permission bits, for a rewrite that keeps them; "" for a missing file. */
export async function readExisting(file: string): Promise<{ text: string; mode: number | undefined }> {
  try {
    const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
    return { text, mode: info.mode & 0o777 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { text: "", mode: undefined };
    throw new ConfigError("config_read_failed", `${file}: cannot read config: ${errorMessage(error)}`, {
      file,
    });
  }
}
