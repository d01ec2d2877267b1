import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@nyzhi/config";
import type { IgnoreStack } from "./ignore-stack.js";

/**
 * Loads every `.nyzhiignore` that git lists (git applies `.gitignore` itself) into `rules`, each
 * for the directory that holds it.
 */
export async function readGitListedIgnoreFiles(
  root: string,
  paths: readonly string[],
  rules: IgnoreStack,
): Promise<void> {
  const ignoreFiles = paths.filter((path) => path === ".nyzhiignore" || path.endsWith("/.nyzhiignore"));
  for (const path of ignoreFiles) {
    const directory = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    try {
      rules.add(directory, await readFile(join(root, path), "utf8"));
    } catch (error) {
      getLogger().warn({ err: error, file: join(root, path) }, "index walk: ignore file not readable");
    }
  }
}
