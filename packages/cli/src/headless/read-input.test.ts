import { closeSync, mkdtempSync, openSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_STDIN_BYTES, readPipedStdin, readStdinFile } from "./read-input.js";

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

  it("refuses a file larger than MAX_STDIN_BYTES with a usage error", () => {
    const file = join(mkdtempSync(join(tmpdir(), "nyzhi-stdin-")), "huge.txt");
    writeFileSync(file, "");
    truncateSync(file, MAX_STDIN_BYTES + 1);
    const descriptor = openSync(file, "r");
    try {
      expect(() => readStdinFile(descriptor)).toThrow(/more than 16 MiB/);
    } finally {
      closeSync(descriptor);
    }
  });
});

describe("readPipedStdin", () => {
  it("keeps a character split across two chunks whole", async () => {
    const pipe = new PassThrough();
    const reading = readPipedStdin(pipe);
    const bytes = Buffer.from("héllo 😀", "utf8");
    pipe.write(bytes.subarray(0, 2));
    pipe.write(bytes.subarray(2, 9));
    pipe.end(bytes.subarray(9));
    expect(await reading).toBe("héllo 😀");
  });

  it("stops reading an endless input past MAX_STDIN_BYTES", async () => {
    const pipe = new PassThrough();
    const reading = readPipedStdin(pipe);
    const block = Buffer.alloc(1024 * 1024);
    for (let index = 0; index <= MAX_STDIN_BYTES / block.length; index += 1) pipe.write(block);
    await expect(reading).rejects.toThrow(/more than 16 MiB/);
  });

  it("collects a pipe to its end, and gives up on a silent one after idleMs", async () => {
    const pipe = new PassThrough();
    const reading = readPipedStdin(pipe);
    pipe.end("piped text");
    expect(await reading).toBe("piped text");
    expect(await readPipedStdin(new PassThrough(), { idleMs: 20 })).toBe("");
  });
});
