import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  contextBlock,
  MAX_MENTION_ENTRIES,
  MAX_MENTION_FILE_BYTES,
  resolveMentions,
} from "./resolve-mentions.js";

async function tree() {
  const root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-mentions-")));
  const project = join(root, "project");
  const cwd = join(project, "pkg");
  const home = join(root, "home");
  await mkdir(cwd, { recursive: true });
  await mkdir(home);
  return { root, project, cwd, home };
}

const allowAll = async () => undefined;

describe("resolveMentions", () => {
  it("attaches a file with its path and line count, from the project root before the working directory", async () => {
    const { project, cwd, home } = await tree();
    await writeFile(join(project, "notes.txt"), "one\ntwo\nthree\n");
    await writeFile(join(cwd, "notes.txt"), "the cwd's copy\n");
    await writeFile(join(cwd, "local.txt"), "only here\n");
    const resolved = await resolveMentions("compare @notes.txt with @local.txt and @nobody", {
      projectRoot: project,
      cwd,
      home,
      refusal: allowAll,
    });
    expect(resolved.attachments).toEqual([
      { kind: "file", path: "notes.txt", lines: 3, bytes: 14, truncated: false },
      { kind: "file", path: "pkg/local.txt", lines: 1, bytes: 10, truncated: false },
    ]);
    expect(contextBlock(resolved.blocks)).toBe(
      '<context>\n<file path="notes.txt" lines="3">\none\ntwo\nthree\n</file>\n<file path="pkg/local.txt" lines="1">\nonly here\n</file>\n</context>',
    );
    expect(resolved.refused).toEqual([]);
  });

  it("cuts a file over 100 KB at a line, with a note; expands ~", async () => {
    const { project, cwd, home } = await tree();
    const line = `${"x".repeat(99)}\n`;
    await writeFile(join(home, "big.log"), line.repeat(2000));
    const resolved = await resolveMentions("@~/big.log", {
      projectRoot: project,
      cwd,
      home,
      refusal: allowAll,
    });
    const lines = Math.floor(MAX_MENTION_FILE_BYTES / 100);
    expect(resolved.attachments).toEqual([
      { kind: "file", path: "~/big.log", lines, bytes: 200_000, truncated: true },
    ]);
    expect(resolved.blocks[0]).toContain(
      `[truncated: the file has 200000 bytes; only its first ${lines} lines`,
    );
    expect(resolved.blocks[0]!.length).toBeLessThan(MAX_MENTION_FILE_BYTES + 500);
  });

  it("lists a folder (at most 200 entries), skipping dot folders, node_modules and build outputs", async () => {
    const { project, cwd, home } = await tree();
    const app = join(project, "app");
    for (const folder of ["src", ".cache", "node_modules", "dist", "target"])
      await mkdir(join(app, folder), { recursive: true });
    await writeFile(join(app, "src", "main.ts"), "");
    await writeFile(join(app, ".cache", "x"), "");
    await writeFile(join(app, "node_modules", "y"), "");
    await writeFile(join(app, "README.md"), "");
    const resolved = await resolveMentions("look at @app/", {
      projectRoot: project,
      cwd,
      home,
      refusal: allowAll,
    });
    expect(resolved.blocks).toEqual(['<directory path="app">\nREADME.md\nsrc/\nsrc/main.ts\n</directory>']);
    expect(resolved.attachments).toEqual([{ kind: "directory", path: "app", entries: 3, truncated: false }]);

    const many = join(project, "many");
    await mkdir(many);
    for (let index = 0; index < MAX_MENTION_ENTRIES + 20; index++)
      await writeFile(join(many, `f${index}`), "");
    const listed = await resolveMentions("@many", { projectRoot: project, cwd, home, refusal: allowAll });
    expect(listed.attachments).toEqual([
      { kind: "directory", path: "many", entries: MAX_MENTION_ENTRIES, truncated: true },
    ]);
    expect(listed.blocks[0]).toContain(`[listing stopped at ${MAX_MENTION_ENTRIES} entries]`);
  });

  it("refuses what the session may not read, with the reason, and never reads it", async () => {
    const { project, cwd, home } = await tree();
    await writeFile(join(project, ".env"), "SECRET=1\n");
    await writeFile(join(project, "blob.bin"), Buffer.from([1, 0, 2]));
    const resolved = await resolveMentions("@.env and @blob.bin", {
      projectRoot: project,
      cwd,
      home,
      refusal: async (path) => (path.endsWith(".env") ? 'blocked by the deny_paths rule ".env"' : undefined),
    });
    expect(resolved.refused).toEqual([
      { path: ".env", reason: 'blocked by the deny_paths rule ".env"' },
      { path: "blob.bin", reason: "it is a binary file" },
    ]);
    expect(resolved.blocks).toEqual([]);
  });
});
