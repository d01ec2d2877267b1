import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { copyFileTool } from "./copy-file-tool.js";
import { createDirTool } from "./create-dir-tool.js";
import { deleteFileTool } from "./delete-file-tool.js";
import { directoryTreeTool } from "./directory-tree-tool.js";
import { fileInfoTool } from "./file-info-tool.js";
import { listDirTool } from "./list-dir-tool.js";
import { moveFileTool } from "./move-file-tool.js";
import { tailFileTool } from "./tail-file-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
  await mkdir(join(test.cwd, "src/lib"), { recursive: true });
  await mkdir(join(test.cwd, "node_modules/pkg"), { recursive: true });
  await writeFile(join(test.cwd, "src/index.ts"), "export {};\n");
  await writeFile(join(test.cwd, "src/lib/util.ts"), "x".repeat(2048));
  await writeFile(join(test.cwd, ".env"), "SECRET=1\n");
  await writeFile(join(test.cwd, "README.md"), "# hi\n");
});
afterEach(async () => {
  await test.cleanup();
});

const exists = (name: string) => existsSync(join(test.cwd, name));

describe("list_dir", () => {
  it("lists directories first, files with sizes, and hides dotfiles", async () => {
    const result = await runTool(listDirTool, {}, test.context);
    expect(result.output).toBe("[DIR]  node_modules/\n[DIR]  src/\n[FILE] README.md (5 B)");
    expect((await runTool(listDirTool, { path: "src/lib" }, test.context)).output).toBe(
      "[FILE] util.ts (2.0 KiB)",
    );
    expect((await runTool(listDirTool, { path: "nope" }, test.context)).output).toBe(
      "Directory not found: nope",
    );
  });
});

describe("directory_tree", () => {
  it("draws a tree, skipping node_modules and dotfiles, to the given depth", async () => {
    expect((await runTool(directoryTreeTool, {}, test.context)).output).toBe(
      "./\n├── src/\n│   ├── lib/\n│   │   └── util.ts\n│   └── index.ts\n└── README.md",
    );
    expect((await runTool(directoryTreeTool, { depth: 1 }, test.context)).output).toBe(
      "./\n├── src/\n└── README.md",
    );
  });
});

describe("file_info", () => {
  it("shows type, size and octal permissions", async () => {
    const output = (await runTool(fileInfoTool, { path: "README.md" }, test.context)).output;
    expect(output).toMatch(
      /^path: README.md\ntype: file\nsize: 5 bytes \(5 B\)\npermissions: 0\d{3}\nmodified: \d{4}-/,
    );
    expect((await runTool(fileInfoTool, { path: "ghost" }, test.context)).output).toBe("Not found: ghost");
  });
});

describe("create_dir", () => {
  it("creates parents and says when the directory exists", async () => {
    expect((await runTool(createDirTool, { path: "a/b/c" }, test.context)).output).toBe(
      "Created directory a/b/c",
    );
    expect((await runTool(createDirTool, { path: "a/b" }, test.context)).output).toBe(
      "Directory a/b already exists.",
    );
    expect(await runTool(createDirTool, { path: "README.md" }, test.context)).toEqual({
      output: "README.md already exists and is not a directory",
      isError: true,
    });
  });
});

describe("delete_file", () => {
  it("deletes a file (undoably) and refuses non-empty directories", async () => {
    test.tracker.checkpoint("t1");
    expect((await runTool(deleteFileTool, { path: "README.md" }, test.context)).output).toBe(
      "Deleted README.md",
    );
    expect(exists("README.md")).toBe(false);
    expect((await runTool(deleteFileTool, { path: "src" }, test.context)).output).toBe(
      "src is a directory with 2 entries; only empty directories can be deleted",
    );
    await test.tracker.undoLastTurn();
    expect(await readFile(join(test.cwd, "README.md"), "utf8")).toBe("# hi\n");
  });
});

describe("move_file", () => {
  it("moves a file, refuses an existing destination, and undo moves it back", async () => {
    test.tracker.checkpoint("t1");
    expect(
      (await runTool(moveFileTool, { source: "README.md", destination: "docs/README.md" }, test.context))
        .output,
    ).toBe("Moved README.md to docs/README.md");
    expect(
      await runTool(moveFileTool, { source: "src/index.ts", destination: "docs/README.md" }, test.context),
    ).toEqual({
      output: "Destination already exists: docs/README.md",
      isError: true,
    });
    await test.tracker.undoLastTurn();
    expect(exists("README.md")).toBe(true);
    expect(exists("docs/README.md")).toBe(false);
  });

  it("moves a directory and undo restores every file", async () => {
    test.tracker.checkpoint("t1");
    await runTool(moveFileTool, { source: "src", destination: "lib" }, test.context);
    expect(exists("lib/lib/util.ts")).toBe(true);
    const report = await test.tracker.undoLastTurn();
    expect(report?.failed).toEqual([]);
    expect(await readFile(join(test.cwd, "src/index.ts"), "utf8")).toBe("export {};\n");
    expect(exists("lib/index.ts")).toBe(false);
  });

  it("names both paths for permission checks", () => {
    expect(moveFileTool.pathsOf({ source: "a", destination: "b" }, test.context)).toEqual([
      { path: "a", access: "write" },
      { path: "b", access: "write" },
    ]);
  });
});

describe("copy_file", () => {
  it("copies a file and a directory; undo removes the copies", async () => {
    test.tracker.checkpoint("t1");
    expect(
      (await runTool(copyFileTool, { source: "README.md", destination: "COPY.md" }, test.context)).output,
    ).toBe("Copied README.md to COPY.md");
    await runTool(copyFileTool, { source: "src", destination: "src2" }, test.context);
    expect(await readFile(join(test.cwd, "src2/lib/util.ts"), "utf8")).toBe("x".repeat(2048));
    await test.tracker.undoLastTurn();
    expect(exists("COPY.md")).toBe(false);
    expect(exists("src2/lib/util.ts")).toBe(false);
    expect(exists("README.md")).toBe(true);
  });
});

describe("tail_file", () => {
  it("shows the last lines with the total", async () => {
    await writeFile(
      join(test.cwd, "log.txt"),
      Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join("\n"),
    );
    expect((await runTool(tailFileTool, { path: "log.txt", lines: 2 }, test.context)).output).toBe(
      "... (100 total lines, showing last 2)\n    99|line 99\n   100|line 100",
    );
  });

  it("reads the tail of a file larger than one chunk", async () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `entry ${index + 1}`);
    await writeFile(join(test.cwd, "big.log"), `${lines.join("\n")}\n`);
    expect((await runTool(tailFileTool, { path: "big.log", lines: 1 }, test.context)).output).toBe(
      "... (20000 total lines, showing last 1)\n 20000|entry 20000",
    );
  });
});
