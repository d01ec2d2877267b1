import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Test helper: a fresh directory under the OS temp dir, and a way to remove every one made. */
export function useTempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    async make() {
      const directory = await mkdtemp(join(tmpdir(), "nyzhi-config-"));
      made.push(directory);
      return directory;
    },
    async cleanup() {
      await Promise.all(made.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
    },
  };
}

/** Writes files (relative path → content) under `root`, creating folders. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [relativePath, content] of Object.entries(files)) {
    const path = join(root, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
}
