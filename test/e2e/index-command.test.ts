import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  findPythonWithOnnx,
  findTestTransformers,
  linkTransformersRuntime,
  TINY_MODEL_ID,
  writeTinyModel,
} from "../../packages/index/src/test-support/tiny-embedding-model.js";
import { NYZ_BIN, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * `nyz index` end to end, on the built bin: a small project in several languages, full-text
 * only and with an embedder served by a local Ollama-speaking server (slow on demand, to kill an
 * update in the middle).
 */

let home: string;
let project: string;
let server: EmbedServer | undefined;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

function writeFixture(): void {
  write(
    "src/config/load.ts",
    "/** Reads the settings file. */\nexport function parseConfigFile(path: string): string[] {\n  return path.split('=');\n}\n",
  );
  write(
    "tools/settings.py",
    "def read_user_settings(path):\n    with open(path) as handle:\n        return handle.read()\n",
  );
  write("cmd/server.go", "package main\n\nfunc StartHttpServer(port int) error {\n\treturn nil\n}\n");
  write("docs/guide.md", "# Guide\n\nHow the walker skips binary files.\n");
}

function globalConfig(toml: string): void {
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(join(home, "config", "config.toml"), toml);
}

const nyz = (args: string[], timeoutMs = 30_000) =>
  runNyz(args, { cwd: project, env: { NYZHI_HOME: home }, timeoutMs });

/** An Ollama `/api/embed` server on 127.0.0.1 that counts the texts it embedded. */
class EmbedServer {
  texts = 0;
  requests = 0;
  delayMs = 0;
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer(async (request, response) => {
      let raw = "";
      for await (const piece of request) raw += piece;
      const input = (JSON.parse(raw) as { input: string[] }).input;
      this.requests++;
      this.texts += input.length;
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const embeddings = input.map((text) => [text.length % 7, text.includes("parse") ? 1 : 0, 1, 0.5]);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ embeddings }));
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-index-e2e-");
  writeFixture();
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe("nyz index (full-text)", () => {
  it("builds, reports status, finds by exact and split identifiers, and is up to date on a second run", async () => {
    const built = await nyz(["index"]);
    expect(withoutProgress(built.stderr)).toBe("");
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/^Indexed 4 files in [\d.]+ s: 4 files, \d+ chunks in the index\.\n$/);

    const status = await nyz(["index", "status", "--json"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      built: true,
      files: 4,
      builtWith: "none",
      embedder: "none",
      complete: true,
    });
    const text = await nyz(["index", "status"]);
    expect(text.stdout).toContain("no embeddings key is set");

    const exact = await nyz(["index", "search", "parseConfigFile", "--json"]);
    expect(exact.code).toBe(0);
    expect(JSON.parse(exact.stdout)[0]).toMatchObject({ path: "src/config/load.ts", startLine: 1 });

    const split = await nyz(["index", "search", "start http server", "--json"]);
    expect(JSON.parse(split.stdout)[0]).toMatchObject({ path: "cmd/server.go" });

    const snake = await nyz(["index", "search", "user settings", "--lang", "python"]);
    expect(snake.stdout).toMatch(/^1\. tools\/settings\.py:1-3/);

    const filtered = await nyz(["index", "search", "settings", "--path", "docs/**", "--json"]);
    expect(JSON.parse(filtered.stdout)).toEqual([]);

    const again = await nyz(["index"]);
    expect(again.stdout).toMatch(/^The index is up to date: 4 files, \d+ chunks/);

    const cleared = await nyz(["index", "clear"]);
    expect(cleared.stdout).toContain("Deleted the index of");
    const missing = await nyz(["index", "search", "parseConfigFile"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("There is no code index for");
  });

  it("rejects a bad -k", async () => {
    const result = await nyz(["index", "search", "x", "-k", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("-k must be a whole number from 1 to 100");
  });
});

describe("nyz index (with an embedder)", () => {
  beforeEach(async () => {
    server = new EmbedServer();
    await server.start();
    globalConfig(
      `[index]\nembedding = "ollama"\nembedding_model = "tiny"\nembedding_base_url = "${server.url}"\n`,
    );
  });

  it("embeds nothing on an unchanged run, and only the edited file's chunks after an edit", async () => {
    const embedServer = server as EmbedServer;
    const first = await nyz(["index"]);
    expect(first.code).toBe(0);
    const chunks = Number(/(\d+) chunks in the index/.exec(first.stdout)?.[1]);
    expect(embedServer.texts).toBe(chunks);
    expect(JSON.parse((await nyz(["index", "status", "--json"])).stdout)).toMatchObject({
      builtWith: "ollama:tiny:4",
      embedder: "ollama:tiny",
    });

    embedServer.texts = 0;
    const second = await nyz(["index"]);
    expect(second.stdout).toMatch(/^The index is up to date/);
    expect(embedServer.texts).toBe(0);

    write("tools/settings.py", "def read_user_settings(path):\n    return open(path).read()\n");
    const third = await nyz(["index"]);
    expect(third.stdout).toMatch(/^Indexed 1 files, 1 chunks embedded in/);
    // One text embedded: the edited file's chunk (a search embeds its query separately, not here).
    expect(embedServer.texts).toBe(1);

    const search = await nyz(["index", "search", "parseConfigFile", "--json"]);
    expect(JSON.parse(search.stdout)[0].path).toBe("src/config/load.ts");
  });

  it("survives kill -9 in the middle of an update: status and search still read the index", async () => {
    const embedServer = server as EmbedServer;
    for (let file = 0; file < 1000; file++)
      write(`many/file-${file}.ts`, `export const value${file} = "${"x".repeat(file % 50)}";\n`);
    embedServer.delayMs = 250;
    const child = spawn(process.execPath, [NYZ_BIN, "index"], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: project,
        NYZHI_HOME: home,
        NYZHI_LOG: "silent",
      },
      stdio: "ignore",
    });
    const indexDir = join(home, "data", "index");
    const deadline = Date.now() + 60_000;
    // Wait for the first saved checkpoint, then a little more so a batch is being written.
    while (Date.now() < deadline) {
      const dirs = existsSync(indexDir) ? await readdir(indexDir) : [];
      if (dirs.some((dir) => existsSync(join(indexDir, dir, "manifest.json")))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;

    const status = await nyz(["index", "status", "--json"]);
    expect(status.code).toBe(0);
    const partial = JSON.parse(status.stdout) as { built: boolean; files: number; complete: boolean };
    expect(partial).toMatchObject({ built: true, complete: false });
    expect(partial.files).toBeGreaterThan(0);
    expect(partial.files).toBeLessThan(1004);
    const search = await nyz(["index", "search", "value0", "--json"]);
    expect(search.code).toBe(0);
    expect(Array.isArray(JSON.parse(search.stdout))).toBe(true);

    embedServer.delayMs = 0;
    const resumed = await nyz(["index"], 60_000);
    expect(resumed.code).toBe(0);
    expect(JSON.parse((await nyz(["index", "status", "--json"])).stdout)).toMatchObject({
      files: 1004,
      complete: true,
    });
    const found = await nyz(["index", "search", "value999", "--json"]);
    expect(JSON.parse(found.stdout)[0].path).toBe("many/file-999.ts");
  }, 120_000);
});

describe("nyz index (local transformers.js)", () => {
  it("without transformers.js, says in one line how to add it, and builds a full-text index", async () => {
    globalConfig('[index]\nembedding = "local"\n');
    const result = await nyz(["index"]);
    expect(result.code).toBe(0);
    expect(withoutProgress(result.stderr)).toBe(
      `Warning: Local embeddings need transformers.js, which is not installed: run \`npm install --prefix "${join(home, "data", "index", "runtime")}" @huggingface/transformers\` (~470 MB), or set index.embedding to a remote provider.\n`,
    );
    expect(JSON.parse((await nyz(["index", "status", "--json"])).stdout)).toMatchObject({
      builtWith: "none",
      embedder: "none",
    });
  });

  // Needs transformers.js (NYZHI_TEST_TRANSFORMERS_DIR) and python3-onnx to build the tiny model.
  const transformers = findTestTransformers();
  const python = findPythonWithOnnx();
  it.skipIf(!transformers || !python)(
    "embeds with a tiny ONNX model in the worker, and the vector side finds what words cannot",
    async () => {
      write(
        "src/zoo.ts",
        "export function describeZebra(): string {\n  return 'black and white stripes';\n}\n",
      );
      const models = join(home, "models");
      writeTinyModel(models, python as string);
      linkTransformersRuntime(home, transformers?.nodeModules ?? "");
      globalConfig(
        `[index]\nembedding = "local"\nembedding_model = "${TINY_MODEL_ID}"\nmodel_dir = "${models}"\n`,
      );
      const built = await nyz(["index"], 60_000);
      expect(withoutProgress(built.stderr)).toBe("");
      expect(built.code).toBe(0);
      const status = JSON.parse((await nyz(["index", "status", "--json"])).stdout);
      expect(status).toMatchObject({
        builtWith: "local:tiny/embed:4",
        embedder: "local:tiny/embed",
        files: 5,
      });
      const found = await nyz(["index", "search", "equine", "--json"], 60_000);
      expect(JSON.parse(found.stdout)[0]).toMatchObject({ path: "src/zoo.ts" });
    },
  );
});

/** Stderr without the progress lines (`indexing: …`) a slow machine adds after a second or so. */
function withoutProgress(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !line.startsWith("indexing:"))
    .join("\n");
}
