import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// core's floor plan lives in .dependency-cruiser.cjs (which `pnpm lint` enforces file by file);
// this test checks that the plan covers every folder and that core has no cycle between folders.
const root = fileURLToPath(new URL("../..", import.meta.url));
const coreSrc = join(root, "packages/core/src");
const config = createRequire(import.meta.url)(join(root, ".dependency-cruiser.cjs")) as {
  coreFloors: { folders: string[]; why: string }[];
};

/** The folder a core file belongs to: its top folder, or the second level under tools/ and engines/. */
function folderOf(file: string): string {
  const parts = relative(coreSrc, dirname(file)).split(sep);
  if (parts[0] === "tools" || parts[0] === "engines") return parts.slice(0, 2).join("/");
  return parts[0] ?? "";
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Folder → folders it imports (relative imports of non-test sources; src/index.ts left out). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(coreSrc)) {
    const from = folderOf(file);
    if (from === "") continue;
    for (const match of readFileSync(file, "utf8").matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
      const to = folderOf(resolve(dirname(file), match[1] ?? ""));
      if (to === from || to === "") continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
  }
  return graph;
}

describe("core's floor plan", () => {
  it("places every folder of packages/core/src on exactly one floor, each with a reason", () => {
    const placed = config.coreFloors.flatMap((floor) => floor.folders);
    expect(new Set(placed).size).toBe(placed.length);
    for (const floor of config.coreFloors) expect(floor.why.length).toBeGreaterThan(20);
    const folders = new Set(
      sourceFiles(coreSrc)
        .map(folderOf)
        .filter((folder) => folder !== ""),
    );
    expect([...folders].filter((folder) => !placed.includes(folder)).sort()).toEqual([]);
  });

  it("has no import between folders that goes up or sideways, hence no folder cycle", () => {
    const floorOf = new Map(
      config.coreFloors.flatMap((floor, level) => floor.folders.map((f) => [f, level])),
    );
    const upward: string[] = [];
    for (const [from, targets] of folderGraph()) {
      for (const to of targets) {
        if ((floorOf.get(to) ?? 0) >= (floorOf.get(from) ?? 0)) upward.push(`${from} → ${to}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
