import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, getLogger, writeFileAtomic } from "@nyzhi/config";
import { analyzeProject } from "./analyze-project.js";
import type { ProjectAnalysis } from "./project-analysis.js";
import { scanProjectFiles } from "./scan-project-files.js";

/** Where the analysis is cached, relative to the project root. */
export const ARCHITECTURE_CACHE_FILE = ".nyzhi/cache/architecture.json";

export type ArchitectureKnowledge =
  | { state: "ready"; analysis: ProjectAnalysis; fromCache: "memory" | "disk" | false }
  | { state: "unavailable"; reason: string };

const memory = new Map<string, ProjectAnalysis>();

/**
 * The project's analysis, computed once and cached — in memory and in
 * `<root>/.nyzhi/cache/architecture.json` — under a fingerprint of every scanned file's path,
 * size and mtime. Any added, removed or changed file invalidates it; the next call recomputes.
 * A cache that cannot be read or written is ignored (and logged), never fatal.
 */
export async function getArchitectureKnowledge(root: string): Promise<ArchitectureKnowledge> {
  const scan = await scanProjectFiles(root);
  const remembered = memory.get(root);
  if (remembered?.fingerprint === scan.fingerprint)
    return { state: "ready", analysis: remembered, fromCache: "memory" };
  const cachePath = join(root, ARCHITECTURE_CACHE_FILE);
  const cached = await readCache(cachePath);
  if (cached?.fingerprint === scan.fingerprint) {
    memory.set(root, cached);
    return { state: "ready", analysis: cached, fromCache: "disk" };
  }
  const analysis = await analyzeProject(root, scan);
  if (!analysis) {
    return {
      state: "unavailable",
      reason: `no TypeScript/JavaScript or Python source files were found under ${root} (${scan.files.length} files scanned; dependencies, build output and VCS folders are skipped)`,
    };
  }
  memory.set(root, analysis);
  try {
    await writeFileAtomic(cachePath, `${JSON.stringify(analysis)}\n`, { fsync: false });
  } catch (error) {
    getLogger().warn(
      { path: cachePath, error: errorMessage(error) },
      "could not write the architecture cache",
    );
  }
  return { state: "ready", analysis, fromCache: false };
}

async function readCache(path: string): Promise<ProjectAnalysis | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as ProjectAnalysis;
    return parsed.version === 1 && typeof parsed.fingerprint === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets the in-memory copies (tests; a host that wants the disk cache consulted again). */
export function clearArchitectureMemory(): void {
  memory.clear();
}
