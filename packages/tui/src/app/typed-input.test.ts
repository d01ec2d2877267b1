import { mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attachmentChip, pastedImagePath, readTypedInput } from "./typed-input.js";

describe("readTypedInput", () => {
  it("reads !command, &prompt and plain prompts", () => {
    expect(readTypedInput("!git status", "!git status")).toEqual({ kind: "shell", command: "git status" });
    expect(readTypedInput("& run the tests", "& run the tests")).toEqual({
      kind: "prompt",
      text: "run the tests",
      display: "run the tests",
      background: true,
    });
    expect(readTypedInput("fix it", "fix it")).toEqual({
      kind: "prompt",
      text: "fix it",
      display: "fix it",
      background: false,
    });
    expect(readTypedInput("!", "!")).toBeUndefined();
  });
});

describe("pastedImagePath", () => {
  it("takes a dropped image's path: plain, quoted, with escaped spaces or as a file:// URL", async () => {
    const folder = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-paste-")));
    const shot = join(folder, "my shot.png");
    await writeFile(shot, "png");
    await writeFile(join(folder, "notes.txt"), "text");
    expect(pastedImagePath(`'${shot}'`, folder)).toBe(shot);
    expect(pastedImagePath(shot.replace(/ /g, "\\ "), folder)).toBe(shot);
    expect(pastedImagePath(`file://${encodeURI(shot)}`, folder)).toBe(shot);
    expect(pastedImagePath("my shot.png", folder)).toBe(shot);
    expect(pastedImagePath(join(folder, "notes.txt"), folder)).toBeUndefined();
    expect(pastedImagePath(join(folder, "missing.png"), folder)).toBeUndefined();
    expect(pastedImagePath(`${shot}\n${shot}`, folder)).toBeUndefined();
  });
});

describe("attachmentChip", () => {
  it("names each attachment as the transcript shows it", () => {
    expect(attachmentChip({ kind: "file", path: "a.ts", lines: 3, bytes: 10, truncated: false })).toBe(
      "[file a.ts · 3 lines]",
    );
    expect(
      attachmentChip({ kind: "file", path: "big.log", lines: 900, bytes: 200_000, truncated: true }),
    ).toBe("[file big.log · 900 lines, cut at 100 KB]");
    expect(attachmentChip({ kind: "directory", path: "src", entries: 4, truncated: false })).toBe(
      "[folder src · 4 entries]",
    );
    expect(attachmentChip({ kind: "image", path: "shot.png", mediaType: "image/png", bytes: 3 })).toBe(
      "[image shot.png]",
    );
  });
});
