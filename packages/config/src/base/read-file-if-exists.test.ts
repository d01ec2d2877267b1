import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFileIfExists } from "./read-file-if-exists.js";

describe("readFileIfExists", () => {
  it("reads a file, is undefined for a missing one, and throws for a folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-read-if-exists-"));
    await writeFile(join(dir, "a.txt"), "hello");
    expect(await readFileIfExists(join(dir, "a.txt"))).toBe("hello");
    expect(await readFileIfExists(join(dir, "missing.txt"))).toBeUndefined();
    await expect(readFileIfExists(dir)).rejects.toMatchObject({ code: "EISDIR" });
  });
});
