import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ripgrepAvailable } from "../grep/ripgrep-search.js";
import { walkFiles, walkFilesSync } from "./walk-files.js";

/** A tree whose ignore files use what `.gitignore` allows: nesting, `!`, anchors, escapes, CRLF. */
const TREE: Record<string, string> = {
  ".gitignore": [
    "*.log",
    "!keep.log",
    "build/",
    "/rootonly.txt",
    "docs/*.md",
    "logs/",
    "!logs/kept.txt",
    "\\#hash.txt",
    "\\!bang.txt",
    "trailing.txt   ",
    "**/cache/**",
    "secret.txt",
    "Upper.txt",
    "[0-9][0-9].dat",
    // Lines git and ripgrep reject as globs (an unclosed class, a dangling escape) ignore nothing.
    "unclosed[",
    "dangling\\",
  ].join("\n"),
  ".ignore": "!secret.txt\n",
  "a.log": "",
  "keep.log": "",
  "rootonly.txt": "",
  "secret.txt": "",
  "upper.txt": "",
  "Upper.txt": "",
  "#hash.txt": "",
  "!bang.txt": "",
  "trailing.txt": "",
  "12.dat": "",
  "unclosed[": "",
  "dangling\\": "",
  "1a.dat": "",
  "build/out.js": "",
  "docs/guide.md": "",
  "docs/deep/nested.md": "",
  "logs/kept.txt": "",
  "logs/other.txt": "",
  "src/cache/x.js": "",
  "src/build": "",
  "src/rootonly.txt": "",
  "src/main.ts": "",
  "sub/.gitignore": "!*.log\nlocal/\n/only-here.txt\r\ncrlf.txt\r\n",
  "sub/debug.log": "",
  "sub/local/x.ts": "",
  "sub/only-here.txt": "",
  "sub/crlf.txt": "",
  "sub/deeper/only-here.txt": "",
  "sub/deeper/.gitignore": "*.log\n!important.log\n",
  "sub/deeper/trace.log": "",
  "sub/deeper/important.log": "",
  "sub/.rgignore": "*.tmp\n",
  "sub/x.tmp": "",
  "node_modules/pkg/index.js": "",
  ".hidden/file.ts": "",
};

const EXPECTED = [
  "1a.dat",
  "dangling\\",
  "docs/deep/nested.md",
  "keep.log",
  "secret.txt",
  "src/build",
  "src/main.ts",
  "src/rootonly.txt",
  "sub/debug.log",
  "sub/deeper/important.log",
  "sub/deeper/only-here.txt",
  "unclosed[",
  "upper.txt",
];

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-ignore-rules-")));
  for (const [path, content] of Object.entries(TREE)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function walked(directory: string): Promise<string[]> {
  const files: string[] = [];
  for await (const file of walkFiles({ root: directory })) files.push(file.relative);
  return files;
}

describe("ignore files in the walk", () => {
  it("apply nested files, `!` re-includes, anchors, escapes and precedence as git and ripgrep do", async () => {
    expect(await walked(root)).toEqual(EXPECTED);
    expect(walkFilesSync({ root, maxEntries: 1000 })?.map((file) => file.relative)).toEqual(EXPECTED);
  });

  it("apply the ignore files of the folders above the one walked", async () => {
    expect(await walked(join(root, "sub"))).toEqual([
      "debug.log",
      "deeper/important.log",
      "deeper/only-here.txt",
    ]);
    expect(await walked(join(root, "docs"))).toEqual(["deep/nested.md"]);
  });
});

describe("ignore rules with `{a,b}`", () => {
  let braces: string;
  beforeAll(async () => {
    braces = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-ignore-braces-")));
    for (const name of ["a.txt", "b.txt", "{a,b}.txt"]) await writeFile(join(braces, name), "");
    await writeFile(join(braces, ".gitignore"), "{a,b}.txt\n");
  });
  afterAll(() => rm(braces, { recursive: true, force: true }));

  it("are read as git reads them (literally); a walk that must equal ripgrep's hands them over", async () => {
    expect(await walked(braces)).toEqual(["a.txt", "b.txt"]);
    // ripgrep expands the braces (it lists only `{a,b}.txt`): the in-process search gives up.
    expect(walkFilesSync({ root: braces, maxEntries: 1000 })).toBeUndefined();
  });
});

const hasRipgrep = await ripgrepAvailable();

describe.skipIf(!hasRipgrep)("ignore files in the walk, against ripgrep", () => {
  /**
   * `rg --files` with the flags the grep tool gives ripgrep, so both select files alike. It exits
   * 2 after warning about the lines it cannot read as globs, and lists the files all the same.
   */
  function ripgrepFiles(directory: string): string[] {
    const flags = [
      "--no-config",
      "--sort",
      "path",
      "--no-require-git",
      "--no-ignore-global",
      "--no-ignore-exclude",
    ];
    const result = spawnSync("rg", ["--files", ...flags, "--glob", "!node_modules"], {
      cwd: directory,
      encoding: "utf8",
    });
    return result.stdout.split("\n").filter((line) => line !== "");
  }

  it("lists the same files as `rg --files`", async () => {
    expect(await walked(root)).toEqual(ripgrepFiles(root));
    expect(await walked(join(root, "sub"))).toEqual(ripgrepFiles(join(root, "sub")));
  });
});
