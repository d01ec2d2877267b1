import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { acquireFileLock, defaultConfig } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Embedder } from "../embedders/embedder.js";
import { embedderId } from "../embedders/embedder.js";
import { toChunkRow } from "../store/chunk-rows.js";
import { ChunkTable } from "../store/chunk-table.js";
import { indexLocation } from "../store/index-location.js";
import { ROW_FORMAT, readManifest } from "../store/manifest.js";
import { type CodeIndex, createIndex } from "./create-index.js";

/** A deterministic embedder: a bag of hashed words; `concepts` map words to a shared slot. */
class CountingEmbedder implements Embedder {
  readonly provider = "fake";
  readonly dimensions = 256;
  embedded = 0;
  failAfter: number | undefined;
  constructor(
    readonly model = "bag",
    private readonly concepts: Record<string, string> = {},
  ) {}
  get id(): string {
    return embedderId(this.provider, this.model, this.dimensions);
  }
  async embed(texts: string[]): Promise<number[][]> {
    if (this.failAfter !== undefined && this.embedded >= this.failAfter) throw new Error("embedder down");
    this.embedded += texts.length;
    return texts.map((text) => this.vector(text));
  }
  private vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const word = this.concepts[raw] ?? raw;
      let hash = 5381;
      for (const character of word) hash = (hash * 33 + character.charCodeAt(0)) >>> 0;
      vector[hash % this.dimensions] = (vector[hash % this.dimensions] ?? 0) + 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  }
}

let home: string;
let root: string;
const indexes: CodeIndex[] = [];

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

function open(embedder: Embedder | null = null): CodeIndex {
  const index = createIndex({ root, env: { NYZHI_HOME: home }, config: defaultConfig(), embedder });
  indexes.push(index);
  return index;
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "nyzhi-index-home-"));
  root = mkdtempSync(join(tmpdir(), "nyzhi-index-project-"));
  write(
    "src/config/load.ts",
    [
      "import { readFileSync } from 'node:fs';",
      "",
      "/** Reads the settings file. */",
      "export function parseConfigFile(path: string): Record<string, string> {",
      "  const text = readFileSync(path, 'utf8');",
      "  return Object.fromEntries(text.split('\\n').map((line) => line.split('=')));",
      "}",
      "",
    ].join("\n"),
  );
  write(
    "tools/settings.py",
    [
      "def read_user_settings(path):",
      "    with open(path) as handle:",
      "        return handle.read()",
      "",
    ].join("\n"),
  );
  write("docs/guide.md", "# Guide\n\nHow to write a config file for the walker.\n");
});

afterEach(async () => {
  for (const index of indexes.splice(0)) await index.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe("createIndex, full-text only", () => {
  it("finds a function by its exact identifier and by its split words", async () => {
    const index = open();
    const result = await index.update();
    expect(result).toMatchObject({
      files: 3,
      indexed: 3,
      embedded: 0,
      removed: 0,
      aborted: false,
      rebuilt: false,
    });
    expect(result.chunks).toBeGreaterThanOrEqual(3);

    const exact = await index.search("parseConfigFile");
    expect(exact[0]).toMatchObject({
      path: "src/config/load.ts",
      symbol: "parseConfigFile",
      language: "typescript",
    });
    expect(exact[0]?.snippet).toContain("export function parseConfigFile");

    const split = await index.search("parse config");
    expect(split[0]?.path).toBe("src/config/load.ts");

    const snake = await index.search("user settings");
    expect(snake[0]).toMatchObject({ path: "tools/settings.py", symbol: "read_user_settings" });
  });

  it("filters by language and by path glob", async () => {
    const index = open();
    await index.update();
    const all = await index.search("config file settings path");
    expect(new Set(all.map((result) => result.path)).size).toBeGreaterThan(1);
    // Repeated: LanceDB 0.22's multi-column full-text query under a filter dropped kept rows at
    // random, about one search in two.
    for (let round = 0; round < 8; round++) {
      const python = await index.search("config file settings path", { language: "python" });
      expect(python.map((result) => result.path)).toEqual(["tools/settings.py"]);
      const markdown = await index.search("config file settings path", { language: "markdown" });
      expect(markdown.map((result) => result.path)).toEqual(["docs/guide.md"]);
      const docs = await index.search("config file settings path", { path: "docs/**" });
      expect(docs.map((result) => result.path)).toEqual(["docs/guide.md"]);
    }
    expect(await index.search("config", { path: "nowhere/**" })).toEqual([]);
  });

  it("returns at most three chunks of one file", async () => {
    const functions = Array.from(
      { length: 6 },
      (_, position) =>
        `export function widget${position}(): string {\n  return "widget gadget ${position}";\n}\n`,
    );
    write("src/widgets.ts", functions.join("\n"));
    write("src/other.ts", `export function otherWidget(): string {\n  return "widget";\n}\n`);
    const index = open();
    await index.update();
    const results = await index.search("widget", { k: 10 });
    expect(results.filter((result) => result.path === "src/widgets.ts")).toHaveLength(3);
    expect(results.some((result) => result.path === "src/other.ts")).toBe(true);
  });

  it("never indexes credential files or paths the agent may not read", async () => {
    write(".env", "OPENAI_API_KEY=sk-secretvalue\n");
    write("certs/server.pem", "-----BEGIN PRIVATE KEY-----\nsecretvalue\n");
    write("config/prod/settings.ts", "export const secretvalue = 1;\n");
    const config = defaultConfig();
    config.agent.trust.deny_paths = ["prod", "/etc/**"];
    const index = createIndex({ root, env: { NYZHI_HOME: home }, config, embedder: null });
    indexes.push(index);
    const result = await index.update();
    expect(result.files).toBe(3);
    expect(await index.search("secretvalue")).toEqual([]);
  });

  it("never indexes nyzhi's own session exports (they would come back as codebase context)", async () => {
    write("nyzhi-export-2026-11-29T07-00-00-000Z.md", "# a transcript\n\nexportedvalue said here\n");
    write("notes/nyzhi-export-20261129-0700.json", '{"exportedvalue": 1}\n');
    write("src/app.ts", "export const kept = 1;\n");
    const index = createIndex({ root, env: { NYZHI_HOME: home }, config: defaultConfig(), embedder: null });
    indexes.push(index);
    await index.update();
    expect(await index.search("exportedvalue")).toEqual([]);
    expect((await index.search("kept")).map((result) => result.path)).toEqual(["src/app.ts"]);
  });

  it("leaves out index.exclude and deny_paths patterns with a slash, anchored at the root", async () => {
    write("config/prod/settings.ts", "export const secretvalue = 1;\n");
    write("src/generated/api.ts", "export const generatedvalue = 1;\n");
    write("lib/src/generated/api.ts", "export const generatedvalue = 2;\n");
    const config = defaultConfig();
    config.agent.trust.deny_paths = ["config/prod/**"];
    config.index.exclude = ["src/generated/**", "docs/*.md"];
    const index = createIndex({ root, env: { NYZHI_HOME: home }, config, embedder: null });
    indexes.push(index);
    expect((await index.update()).files).toBe(3);
    expect(await index.search("secretvalue")).toEqual([]);
    expect((await index.search("generatedvalue")).map((result) => result.path)).toEqual([
      "lib/src/generated/api.ts",
    ]);
    expect(await index.search("walker")).toEqual([]);
  });

  it("finds code written in the API's words from a question in other words (the thesaurus)", async () => {
    write(
      "src/store.ts",
      ["export function clearEntries(store: Map<string, string>): void {", "  store.clear();", "}", ""].join(
        "\n",
      ),
    );
    const index = open();
    await index.update();
    const results = await index.search("wipe everything that was kept");
    expect(results[0]).toMatchObject({ path: "src/store.ts", symbol: "clearEntries" });
  });

  it("finds a word that is in exactly half of the chunks of a tiny index", async () => {
    // Classic BM25 weighs such a word ln((N - n + 0.5) / (n + 0.5)) = 0; LanceDB adds 1 inside the
    // logarithm, so it still counts. This guards that against a LanceDB upgrade.
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root);
    write("zoo.md", "The zebra grazes.\n");
    write("farm.md", "The horse sleeps.\n");
    const index = open();
    expect((await index.update()).chunks).toBe(2);
    expect((await index.search("zebra")).map((result) => result.path)).toEqual(["zoo.md"]);
    write("barn.md", "The zebra visits.\n");
    write("shed.md", "The goat eats.\n");
    await index.update();
    expect((await index.search("zebra")).map((result) => result.path).sort()).toEqual(["barn.md", "zoo.md"]);
  });

  it("says so when there is no index yet, and clear removes it", async () => {
    const index = open();
    await expect(index.search("anything")).rejects.toThrow(/no code index .* Run `nyz index`/);
    expect(await index.status()).toMatchObject({ built: false, files: 0, embedder: "none" });
    await index.update();
    expect(await index.status()).toMatchObject({ built: true, files: 3, complete: true, builtWith: "none" });
    await index.clear();
    expect((await index.status()).built).toBe(false);
  });
});

describe("createIndex, incremental updates", () => {
  it("embeds nothing on an unchanged update, only the edited file's new chunks after an edit", async () => {
    const embedder = new CountingEmbedder();
    const index = open(embedder);
    const first = await index.update();
    expect(first.embedded).toBe(first.chunks);
    expect(embedder.embedded).toBe(first.chunks);

    const second = await index.update();
    expect(second).toMatchObject({ indexed: 0, embedded: 0, removed: 0, files: 3, chunks: first.chunks });
    expect(embedder.embedded).toBe(first.chunks);

    write(
      "tools/settings.py",
      [
        "def read_user_settings(path):",
        "    with open(path) as handle:",
        "        return handle.read()",
        "",
        "def write_user_settings(path, text):",
        "    with open(path, 'w') as handle:",
        "        handle.write(text)",
        "",
      ].join("\n"),
    );
    const before = embedder.embedded;
    const third = await index.update();
    expect(third.indexed).toBe(1);
    // Only the new function's chunk is embedded; the unchanged one keeps its vector.
    expect(third.embedded).toBe(embedder.embedded - before);
    expect(third.embedded).toBeGreaterThan(0);
    expect(third.embedded).toBe(third.chunks - first.chunks);
    expect((await index.search("write_user_settings"))[0]?.symbol).toBe("write_user_settings");

    rmSync(join(root, "docs/guide.md"));
    const fourth = await index.update();
    expect(fourth).toMatchObject({ removed: 1, files: 2, embedded: 0 });
    expect((await index.search("guide walker", { path: "docs/**" })).length).toBe(0);
  });

  it("updates only the given paths: an edit, a new file, a deleted one, an ignored one", async () => {
    const walked: string[] = [];
    const index = createIndex({
      root,
      env: { NYZHI_HOME: home },
      config: defaultConfig(),
      embedder: null,
      walkProject: async (walkRoot, walkOptions) => {
        walked.push(walkRoot);
        const { walkProject } = await import("../walker/walk-project.js");
        return walkProject(walkRoot, walkOptions);
      },
    });
    indexes.push(index);
    await index.update();
    // A reader that holds the table already must see the update too.
    expect((await index.search("parseConfigFile"))[0]?.symbol).toBe("parseConfigFile");
    walked.length = 0;
    write("src/config/load.ts", "export function loadSettingsToml(): string {\n  return 'toml';\n}\n");
    const edited = await index.update({ paths: [join(root, "src/config/load.ts")] });
    expect(edited).toMatchObject({ files: 3, indexed: 1, removed: 0 });
    // A file the index holds is judged without walking the project.
    expect(walked).toEqual([]);
    expect((await index.search("loadSettingsToml"))[0]).toMatchObject({
      path: "src/config/load.ts",
      symbol: "loadSettingsToml",
    });
    const old = await index.search("parseConfigFile");
    expect(old.filter((hit) => hit.content.includes("parseConfigFile"))).toEqual([]);

    write(".nyzhiignore", "generated/\n");
    write("generated/out.ts", "export function generatedThing(): void {}\n");
    write("src/fresh.ts", "export function freshlyAdded(): void {}\n");
    rmSync(join(root, "tools/settings.py"));
    const mixed = await index.update({
      paths: ["src/fresh.ts", "generated/out.ts", "tools/settings.py", "../x"],
    });
    expect(mixed).toMatchObject({ indexed: 1, removed: 1 });
    expect((await index.search("freshlyAdded"))[0]?.path).toBe("src/fresh.ts");
    const texts = async (query: string) => (await index.search(query)).map((hit) => hit.content).join("\n");
    expect(await texts("generatedThing")).not.toContain("generatedThing");
    expect(await texts("read_user_settings")).not.toContain("read_user_settings");
    expect((await index.status()).files).toBe(3);
  });

  it("rebuilds with a different embedder, and keeps the old index while the rebuild fails", async () => {
    const first = new CountingEmbedder("bag");
    await open(first).update();

    const broken = new CountingEmbedder("other");
    broken.failAfter = 0;
    const brokenIndex = open(broken);
    await expect(brokenIndex.update()).rejects.toThrow("embedder down");
    const location = indexLocation(root, { NYZHI_HOME: home });
    expect((await readManifest(location.manifestPath))?.embedderId).toBe(first.id);
    // The old index still answers.
    expect((await open(first).search("parseConfigFile"))[0]?.path).toBe("src/config/load.ts");

    const second = new CountingEmbedder("other");
    const result = await open(second).update();
    expect(result.rebuilt).toBe(true);
    expect(result.embedded).toBe(result.chunks);
    expect((await readManifest(location.manifestPath))?.embedderId).toBe(second.id);
    expect(await readManifest(location.nextManifestPath)).toBeUndefined();
    expect((await open(second).status()).builtWith).toBe(second.id);
  });

  it("rebuilds an index whose rows are of an older format, and searches it until then", async () => {
    const index = open();
    await index.update();
    const location = indexLocation(root, { NYZHI_HOME: home });
    const manifest = await readManifest(location.manifestPath);
    if (!manifest) throw new Error("no manifest");
    delete manifest.rowFormat;
    writeFileSync(location.manifestPath, JSON.stringify(manifest));
    expect((await open().status()).rebuildPending).toBe(true);
    expect((await open().search("parseConfigFile"))[0]?.symbol).toBe("parseConfigFile");
    const result = await open().update();
    expect(result.rebuilt).toBe(true);
    expect((await readManifest(location.manifestPath))?.rowFormat).toBe(ROW_FORMAT);
    expect((await open().status()).rebuildPending).toBe(false);
  });

  it("keeps what was done when stopped, and the next update goes on from there", async () => {
    for (let file = 0; file < 2100; file++)
      write(`many/file-${file}.ts`, `export const value${file} = ${file};\n`);
    const controller = new AbortController();
    const index = open();
    const stopped = await index.update({
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.filesDone > 0) controller.abort();
      },
    });
    expect(stopped.aborted).toBe(true);
    expect(stopped.files).toBeGreaterThan(0);
    expect(stopped.files).toBeLessThan(2103);
    expect(await index.status()).toMatchObject({ complete: false, files: stopped.files });
    expect((await index.search("value0"))[0]?.path).toBe("many/file-0.ts");

    const rest = await index.update();
    expect(rest).toMatchObject({ aborted: false, files: 2103, indexed: 2103 - stopped.files });
    expect((await index.status()).complete).toBe(true);
  });
});

describe("createIndex, two writers", () => {
  it("waits up to lockWaitMs for another writer, saying so once; fails with index_busy after it", async () => {
    const index = open();
    const { lockPath } = indexLocation(root, { NYZHI_HOME: home });
    mkdirSync(dirname(lockPath), { recursive: true });
    // Another process's update, holding the lock longer than the default 3 s wait.
    let release = await acquireFileLock(lockPath);
    const held = setTimeout(() => void release(), 3_500);
    let waits = 0;
    try {
      const result = await index.update({ lockWaitMs: 30_000, onWaiting: () => waits++ });
      expect(result.indexed).toBe(3);
      expect(waits).toBe(1);
    } finally {
      clearTimeout(held);
      await release();
    }
    release = await acquireFileLock(lockPath);
    try {
      await expect(index.update({ lockWaitMs: 1_200 })).rejects.toMatchObject({ code: "index_busy" });
    } finally {
      await release();
    }
  }, 20_000);
});

describe("createIndex, a writer that died half-way", () => {
  it("is invisible to readers, and the next update rolls its commits back", async () => {
    const index = open();
    await index.update();
    // A writer killed between its commits: one file's rows deleted, a stray row added, no manifest saved.
    const location = indexLocation(root, { NYZHI_HOME: home });
    const manifest = await readManifest(location.manifestPath);
    const database = await ChunkTable.connect(location.databasePath);
    const table = await ChunkTable.open(database, manifest?.table ?? "");
    await table.deletePaths(["src/config/load.ts"]);
    const ghost = {
      path: "ghost.ts",
      startLine: 1,
      endLine: 1,
      symbol: undefined,
      kind: "module" as const,
      language: "typescript",
      content: "phantomIdentifier",
    };
    await table.add([toChunkRow(ghost, { embedderId: "", vector: undefined })]);
    expect(await table.version()).toBeGreaterThan(manifest?.tableVersion ?? 0);
    table.close();
    database.close();

    expect(await index.search("phantomIdentifier")).toEqual([]);
    expect((await index.search("parseConfigFile"))[0]?.path).toBe("src/config/load.ts");

    write("tools/settings.py", "def read_user_settings(path):\n    return path\n");
    const result = await index.update();
    expect(result).toMatchObject({ indexed: 1, files: 3 });
    expect(await index.search("phantomIdentifier")).toEqual([]);
    expect((await index.search("parseConfigFile"))[0]?.path).toBe("src/config/load.ts");
  });
});

describe("createIndex, hybrid search", () => {
  it("finds through the vector side what full-text alone cannot", async () => {
    write(
      "src/zoo.ts",
      "export function describeZebra(): string {\n  return 'black and white stripes';\n}\n",
    );
    // The fake model knows that all of these are about zebras; the word "equine" is in no file.
    const concepts = { describezebra: "zebra", black: "zebra", white: "zebra", stripes: "zebra" };
    const fullText = open();
    await fullText.update();
    expect(await fullText.search("equine")).toEqual([]);
    await fullText.clear();

    const hybrid = open(new CountingEmbedder("concepts", { ...concepts, equine: "zebra" }));
    await hybrid.update();
    const results = await hybrid.search("equine");
    expect(results[0]?.path).toBe("src/zoo.ts");
    expect(results[0]?.symbol).toBe("describeZebra");
  });
});
