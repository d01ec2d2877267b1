import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

let cached: string | undefined;

/** `bash` when it is on PATH (or in /bin), else `/bin/sh`; looked up once. */
export function findShell(): string {
  if (cached) return cached;
  const directories = [...(process.env.PATH ?? "").split(delimiter), "/bin", "/usr/bin"];
  for (const directory of directories) {
    if (directory === "") continue;
    const candidate = join(directory, "bash");
    try {
      accessSync(candidate, constants.X_OK);
      cached = candidate;
      return candidate;
    } catch {
      // Not here; try the next directory.
    }
  }
  cached = "/bin/sh";
  return cached;
}
