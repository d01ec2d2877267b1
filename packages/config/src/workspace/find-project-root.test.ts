import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs, writeFiles } from "../testing/temp-dirs.js";
import { findProjectRoot, projectMarkerIn } from "./find-project-root.js";

const temp = useTempDirs();
afterEach(() => temp.cleanup());

describe("findProjectRoot", () => {
  it("walks up to the nearest directory with .nyzhi/, .claude/ or .git", async () => {
    const root = await temp.make();
    const nested = join(root, "a", "b", "c");
    await mkdir(nested, { recursive: true });
    await mkdir(join(root, ".claude"));
    expect(findProjectRoot(nested)).toBe(root);

    await writeFiles(root, { "a/.git": "gitdir: /elsewhere\n" });
    expect(findProjectRoot(nested)).toBe(join(root, "a"));
  });

  it("checks .nyzhi/ before .claude/ before .git, and ignores a .nyzhi file", async () => {
    const root = await temp.make();
    await writeFiles(root, { ".git/HEAD": "", ".claude/x": "" });
    expect(projectMarkerIn(root)).toBe(".claude");
    await writeFiles(root, { ".nyzhi/config.toml": "" });
    expect(projectMarkerIn(root)).toBe(".nyzhi");

    const other = await temp.make();
    await writeFiles(other, { ".nyzhi": "not a dir" });
    expect(projectMarkerIn(other)).toBeUndefined();
  });

  it("returns the start directory when no ancestor is a project", async () => {
    const start = join(await temp.make(), "deep", "er");
    await mkdir(start, { recursive: true });
    let ancestorWithMarker: string | undefined;
    for (let directory = dirname(start); ; directory = dirname(directory)) {
      if (projectMarkerIn(directory)) {
        ancestorWithMarker = directory;
        break;
      }
      if (dirname(directory) === directory) break;
    }
    // The OS temp dir normally has no marker above it; if it does, the walk must stop there.
    expect(findProjectRoot(start)).toBe(ancestorWithMarker ?? start);
  });
});
