import { describe, expect, it } from "vitest";
import { createAncestorExcludeMatcher, createExcludeMatcher } from "./exclude-globs.js";

const paths = [
  "a.snap",
  "src/app.snap",
  "fixtures",
  "test/fixtures",
  "test/fixtures/data.json",
  "src/generated",
  "src/generated/api.ts",
  "src/generated/deep/types.ts",
  "lib/src/generated/api.ts",
  "docs/intro.md",
  "docs/guide/setup.md",
  "other/docs/intro.md",
  "build",
  "src/build",
  "dist",
  "packages/x/dist",
  "src/config/prod/keys.ts",
  "README.md",
];

const matching = (patterns: string[], candidates = paths) => {
  const matches = createExcludeMatcher(patterns);
  return candidates.filter((path) => matches(path));
};

describe("createExcludeMatcher", () => {
  it("matches a pattern without a slash against the name at any depth", () => {
    expect(matching(["*.snap", "fixtures", "dist/"])).toEqual([
      "a.snap",
      "src/app.snap",
      "fixtures",
      "test/fixtures",
      "dist",
      "packages/x/dist",
    ]);
  });

  it("matches a pattern with a slash against the whole path from the root", () => {
    expect(matching(["src/generated/**"])).toEqual([
      "src/generated",
      "src/generated/api.ts",
      "src/generated/deep/types.ts",
    ]);
    expect(matching(["docs/*.md"])).toEqual(["docs/intro.md"]);
    expect(matching(["/build", "./README.md"])).toEqual(["build", "README.md"]);
  });

  it("lets ** span directories at the start and in the middle", () => {
    expect(matching(["**/generated/*.ts"])).toEqual(["src/generated/api.ts", "lib/src/generated/api.ts"]);
    expect(matching(["docs/**/*.md", "**/prod/**"])).toEqual([
      "docs/intro.md",
      "docs/guide/setup.md",
      "src/config/prod/keys.ts",
    ]);
  });

  it("matches nothing without patterns, and ignores blank ones", () => {
    expect(matching([])).toEqual([]);
    expect(matching(["", "  ", "/"])).toEqual([]);
  });

  it("with ancestors, leaves out everything below a matching directory", () => {
    const matches = createAncestorExcludeMatcher(createExcludeMatcher(["src/generated", "fixtures"]));
    expect(paths.filter((path) => matches(path))).toEqual([
      "fixtures",
      "test/fixtures",
      "test/fixtures/data.json",
      "src/generated",
      "src/generated/api.ts",
      "src/generated/deep/types.ts",
    ]);
  });
});
