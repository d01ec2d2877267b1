import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { compareText } from "@nyzhi/config";
import type { SourceLanguage } from "./project-analysis.js";

/** Folders never scanned: dependencies, build output, caches, VCS, virtualenvs, test fixtures. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  "dist",
  "build",
  "out",
  "coverage",
  ".next",
  ".nuxt",
  ".turbo",
  ".cache",
  ".nyzhi",
  ".venv",
  "venv",
  "env",
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".tox",
  "site-packages",
  "target",
  "vendor",
  "__fixtures__",
  ".idea",
  ".vscode",
]);

/** Most files scanned; a bigger tree is analysed from its first files in path order. */
export const MAX_SCANNED_FILES = 5000;
/** Source files larger than this (bytes) are counted but not parsed (generated or bundled code). */
export const MAX_PARSED_FILE_BYTES = 512 * 1024;

const LANGUAGE_BY_EXTENSION: Record<string, SourceLanguage> = {
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".py": "python",
};

export interface ScannedFile {
  /** Project-relative, `/`-separated. */
  path: string;
  size: number;
  mtimeMs: number;
  language: SourceLanguage | undefined;
}

export interface ProjectScan {
  files: ScannedFile[];
  /** Changes when any scanned file is added, removed, resized or touched. */
  fingerprint: string;
}

/** The language of a path by its extension (`.d.ts` files are not sources). */
export function languageOf(path: string): SourceLanguage | undefined {
  if (path.endsWith(".d.ts")) return undefined;
  const dot = path.lastIndexOf(".");
  return dot < 0 ? undefined : LANGUAGE_BY_EXTENSION[path.slice(dot)];
}

/** Lists the project's files (sorted, skipping `SKIPPED_DIRECTORIES` and dot-files) with a fingerprint. */
export async function scanProjectFiles(root: string): Promise<ProjectScan> {
  const files: ScannedFile[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(root, relative), { withFileTypes: true }).catch(() => []);
    entries.sort((left, right) => compareText(left.name, right.name));
    for (const entry of entries) {
      if (files.length >= MAX_SCANNED_FILES) return;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith(".")) await walk(path);
      } else if (entry.isFile() && !entry.name.startsWith(".")) {
        const info = await stat(join(root, path)).catch(() => undefined);
        if (info)
          files.push({
            path,
            size: info.size,
            mtimeMs: Math.floor(info.mtimeMs),
            language: languageOf(path),
          });
      }
    }
  };
  await walk("");
  const hash = createHash("sha256");
  for (const file of files) hash.update(`${file.path}\0${file.size}\0${file.mtimeMs}\n`);
  return { files, fingerprint: hash.digest("hex").slice(0, 32) };
}
