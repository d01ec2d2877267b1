import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { editTool } from "./edit-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
  await writeFile(join(test.cwd, "a.ts"), "const a = 1;\nconst b = 1;\nconst c = 2;\n");
});
afterEach(async () => {
  await test.cleanup();
});

const read = () => readFile(join(test.cwd, "a.ts"), "utf8");

describe("edit", () => {
  it("replaces a unique match and shows a diff", async () => {
    const result = await runTool(
      editTool,
      { file_path: "a.ts", old_string: "c = 2", new_string: "c = 3" },
      test.context,
    );
    expect(result.output).toBe(
      "Edited a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n const b = 1;\n-const c = 2;\n+const c = 3;",
    );
    expect(await read()).toBe("const a = 1;\nconst b = 1;\nconst c = 3;\n");
  });

  it("refuses a missing or ambiguous match and leaves the file alone", async () => {
    expect(
      await runTool(editTool, { file_path: "a.ts", old_string: "zzz", new_string: "y" }, test.context),
    ).toEqual({
      output: "old_string not found in file",
      isError: true,
    });
    expect(
      await runTool(editTool, { file_path: "a.ts", old_string: "= 1", new_string: "= 9" }, test.context),
    ).toEqual({
      output: "old_string found 2 times -- it must appear exactly once (add context or set replace_all)",
      isError: true,
    });
    expect(await read()).toBe("const a = 1;\nconst b = 1;\nconst c = 2;\n");
  });

  it("replaces every match with replace_all, keeping $ patterns literal", async () => {
    const result = await runTool(
      editTool,
      { file_path: "a.ts", old_string: "= 1", new_string: "= $&", replace_all: true },
      test.context,
    );
    expect(result.output.split("\n")[0]).toBe("Edited a.ts (2 replacements)");
    expect(await read()).toBe("const a = $&;\nconst b = $&;\nconst c = 2;\n");
  });

  it("matches LF text in a CRLF file", async () => {
    await writeFile(join(test.cwd, "crlf.txt"), "one\r\ntwo\r\nthree\r\n");
    await runTool(
      editTool,
      { file_path: "crlf.txt", old_string: "one\ntwo", new_string: "1\n2" },
      test.context,
    );
    expect(await readFile(join(test.cwd, "crlf.txt"), "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("reports a missing file and identical strings", async () => {
    expect(
      (await runTool(editTool, { file_path: "no.ts", old_string: "a", new_string: "b" }, test.context))
        .output,
    ).toBe("File not found: no.ts");
    expect(
      (await runTool(editTool, { file_path: "a.ts", old_string: "a", new_string: "a" }, test.context)).output,
    ).toBe("old_string and new_string are identical; nothing would change");
  });
});
