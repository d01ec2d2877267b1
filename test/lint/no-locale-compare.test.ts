import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packages = fileURLToPath(new URL("../../packages/", import.meta.url));

async function sourceFiles(directory: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

describe("start-up hygiene", () => {
  it("sorts with compareText, never localeCompare (its first call loads ICU data, ~10 ms)", async () => {
    const offenders: string[] = [];
    for (const name of await readdir(packages)) {
      for (const file of await sourceFiles(join(packages, name, "src")).catch(() => [])) {
        if ((await readFile(file, "utf8")).includes(".localeCompare(")) offenders.push(file);
      }
    }
    expect(offenders).toEqual([]);
  });
});
