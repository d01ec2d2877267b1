import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type NyzhiDirs, resolveDirs } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findSecret } from "./find-secret.js";
import { projectMemoryDir, projectMemoryKey, userMemoryPath } from "./memory-paths.js";
import {
  clearProjectMemory,
  countMemories,
  listMemoryTopics,
  MEMORY_INDEX_HEADER,
  NO_PROJECT_MEMORIES,
  readMemoryIndex,
  readMemoryTopic,
  sanitizeTopicName,
  writeMemoryTopic,
} from "./memory-store.js";

let temp: string;
let dirs: NyzhiDirs;
let root: string;
let dir: string;
beforeEach(async () => {
  temp = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-memory-")));
  dirs = resolveDirs({ NYZHI_HOME: join(temp, "home") });
  root = join(temp, "project");
  await mkdir(root);
  dir = await projectMemoryDir(root, dirs);
});
afterEach(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe("memory paths", () => {
  it("keys a project by 16 hex digits of the SHA-256 of its real path", async () => {
    const key = await projectMemoryKey(root);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(dir).toBe(join(temp, "home", "data", "memory", key));
    const link = join(temp, "link");
    await symlink(root, link);
    expect(await projectMemoryKey(link)).toBe(key);
    expect(await projectMemoryKey(join(temp, "other"))).not.toBe(key);
    expect(userMemoryPath(dirs)).toBe(join(temp, "home", "config", "MEMORY.md"));
  });
});

describe("topics", () => {
  it("sanitises names and refuses empty ones and the index's own name", () => {
    expect(sanitizeTopicName("Build & Test.md")).toBe("build---test");
    expect(sanitizeTopicName("../../etc/passwd")).toBe("------etc-passwd");
    expect(sanitizeTopicName("user_prefs-2")).toBe("user_prefs-2");
    expect(() => sanitizeTopicName("...")).toThrow("Invalid topic name '...'");
    expect(() => sanitizeTopicName("MEMORY")).toThrow("reserved for the index");
  });

  it("writes, appends and replaces topics and keeps one index line per topic", async () => {
    expect(await readMemoryIndex(dir)).toBe(NO_PROJECT_MEMORIES);
    expect(await writeMemoryTopic(dir, "Build", "# Build\nRun pnpm build first.", "append")).toEqual({
      path: join(dir, "build.md"),
      topic: "build",
      lines: 2,
      created: true,
    });
    await writeMemoryTopic(dir, "build", "Tests: pnpm vitest run\n\n", "append");
    await writeMemoryTopic(dir, "architecture", "config → core → cli", "replace");
    expect(await readFile(join(dir, "build.md"), "utf8")).toBe(
      "# Build\nRun pnpm build first.\nTests: pnpm vitest run\n",
    );
    expect(await readFile(join(dir, "MEMORY.md"), "utf8")).toBe(
      `${MEMORY_INDEX_HEADER}- [build](build.md): Build\n- [architecture](architecture.md): config → core → cli\n`,
    );

    await writeMemoryTopic(dir, "build", "Use turbo: pnpm build", "replace");
    expect(await readMemoryTopic(dir, "BUILD")).toBe("Use turbo: pnpm build\n");
    expect(await readMemoryIndex(dir)).toBe(
      `${MEMORY_INDEX_HEADER}- [build](build.md): Use turbo: pnpm build\n- [architecture](architecture.md): config → core → cli\n`,
    );
    expect(await listMemoryTopics(dir)).toEqual(["architecture", "build"]);
  });

  it("serialises concurrent writes so no index line is lost", async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        writeMemoryTopic(dir, `topic-${index}`, `fact ${index}`, "append"),
      ),
    );
    const index = await readMemoryIndex(dir);
    for (let index_ = 0; index_ < 8; index_++)
      expect(index).toContain(`- [topic-${index_}](topic-${index_}.md)`);
  });

  it("names the path and the topics there are when a topic is missing", async () => {
    await writeMemoryTopic(dir, "build", "x", "append");
    await expect(readMemoryTopic(dir, "deploy")).rejects.toThrow(
      `Topic 'deploy' not found at ${join(dir, "deploy.md")}. Available topics: build`,
    );
  });

  it("counts entries and clears the project memory", async () => {
    await mkdir(dirs.config, { recursive: true });
    await writeFile(userMemoryPath(dirs), "# Me\n- prefers tabs\n- British spelling\n");
    await writeMemoryTopic(dir, "a", "x", "append");
    await writeMemoryTopic(dir, "b", "y", "append");
    expect(await countMemories(dir, userMemoryPath(dirs))).toBe(2 + 2 + 2);
    await clearProjectMemory(dir);
    expect(await listMemoryTopics(dir)).toEqual([]);
    expect(await readMemoryIndex(dir)).toBe(NO_PROJECT_MEMORIES);
  });
});

describe("findSecret", () => {
  it.each([
    ["key sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "an Anthropic/OpenAI-style API key"],
    ["AKIAIOSFODNN7EXAMPLE", "an AWS access key id"],
    ["token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "a GitHub token"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----", "a private key"],
    ["Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456", "a bearer token"],
    ["DATABASE_URL=postgres://admin:hunter22@db:5432/app", "credentials in a URL"],
    ["password = correct-horse-battery", "a password or key assignment"],
    ['"api_key": "0123456789abcdef"', "a password or key assignment"],
  ])("recognises %s", (text, kind) => {
    expect(findSecret(text)).toBe(kind);
  });

  it.each([
    "Run pnpm build before the tests.",
    "The API key is read from $ANTHROPIC_API_KEY.",
    "token = process.env.GITHUB_TOKEN",
    "password: see the team vault",
    "Tokens expire after 1h; refresh in the background.",
    "commit a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 fixed it",
  ])("lets ordinary notes through: %s", (text) => {
    expect(findSecret(text)).toBeUndefined();
  });
});
