import { closeSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readPipedStdin, readStdinFile } from "./read-input.js";

describe("readStdinFile", () => {
  it("reads a regular file at once, takes /dev/null as empty, and leaves other kinds to streaming", () => {
    const file = join(mkdtempSync(join(tmpdir(), "nyzhi-stdin-")), "prompt.txt");
    writeFileSync(file, "fix the test\n");
    const descriptors = [openSync(file, "r"), openSync("/dev/null", "r")];
    try {
      expect(readStdinFile(descriptors[0]!)).toBe("fix the test\n");
      expect(readStdinFile(descriptors[1]!)).toBe("");
      expect(readStdinFile(987_654)).toBeUndefined();
    } finally {
      for (const descriptor of descriptors) closeSync(descriptor);
    }
  });
});

describe("readPipedStdin", () => {
  it("collects a pipe to its end, and gives up on a silent one after idleMs", async () => {
    const pipe = new PassThrough();
    const reading = readPipedStdin(pipe);
    pipe.end("piped text");
    expect(await reading).toBe("piped text");
    expect(await readPipedStdin(new PassThrough(), { idleMs: 20 })).toBe("");
  });
});
