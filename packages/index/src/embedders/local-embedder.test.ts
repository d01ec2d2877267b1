import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configSchema } from "@nyzhi/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIndex } from "../indexer/create-index.js";
import {
  findTinyModelTools,
  linkTransformersRuntime,
  TINY_MODEL_ID,
  writeTinyModel,
} from "../test-support/tiny-embedding-model.js";
import { modelCacheDir } from "./find-transformers.js";
import { LocalEmbedder } from "./local-embedder.js";

// transformers.js (~470 MB) is an optional dependency and python3-onnx a system package: without
// either, these tests are skipped and say why (set NYZHI_TEST_TRANSFORMERS_DIR to a folder where
// transformers.js is installed; .ci/run installs both).
const tools = findTinyModelTools();
const transformers = "missing" in tools ? undefined : tools.transformers;
const python = "missing" in tools ? undefined : tools.python;
const ready = transformers !== undefined && python !== undefined;
if ("missing" in tools) console.warn(`LocalEmbedder tests skipped: ${tools.missing}`);

let home: string;
let models: string;
let modelFolder: string;

beforeAll(() => {
  if (!ready) return;
  home = mkdtempSync(join(tmpdir(), "nyzhi-local-embedder-"));
  models = join(home, "models");
  modelFolder = writeTinyModel(models, python);
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

const cosine = (left: ArrayLike<number>, right: ArrayLike<number>): number => {
  let dot = 0;
  for (let position = 0; position < left.length; position++)
    dot += (left[position] ?? 0) * (right[position] ?? 0);
  return dot;
};

describe.skipIf(!ready)("LocalEmbedder with transformers.js and a tiny ONNX model", () => {
  it("embeds in a worker thread: normalised, mean-pooled vectors of the model's width, in batches", async () => {
    const embedder = new LocalEmbedder({
      transformersPath: transformers?.entry ?? "",
      model: TINY_MODEL_ID,
      modelFolder,
      cacheDir: modelCacheDir({ NYZHI_HOME: home }),
    });
    try {
      expect(embedder.id).toBe("local:tiny/embed");
      const texts = [
        "zebra stripes",
        "equine",
        "parse config file",
        ...Array.from({ length: 37 }, (_, n) => `settings ${n}`),
      ];
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 1);
      const vectors = await embedder.embed(texts);
      clearInterval(ticker);
      expect(vectors).toHaveLength(40);
      expect(embedder.id).toBe("local:tiny/embed:4");
      const [zebra, equine, parse] = vectors;
      expect(Array.from(zebra ?? [])).toEqual([1, 0, 0, 0]);
      expect(cosine(zebra ?? [], equine ?? [])).toBeCloseTo(1, 5);
      expect(cosine(zebra ?? [], parse ?? [])).toBeCloseTo(0, 5);
      for (const vector of vectors) expect(cosine(vector, vector)).toBeCloseTo(1, 5);
      // The event loop kept turning while the model ran.
      expect(ticks).toBeGreaterThan(0);
    } finally {
      await embedder.close();
    }
  });

  it("reports a model that cannot be loaded", async () => {
    const embedder = new LocalEmbedder({
      transformersPath: transformers?.entry ?? "",
      model: "missing/model",
      modelFolder: join(models, "missing/model"),
      cacheDir: modelCacheDir({ NYZHI_HOME: home }),
      allowRemote: false,
    });
    try {
      await expect(embedder.embed(["x"])).rejects.toThrow(
        /The local model missing\/model failed: .*Check index.model_dir/,
      );
    } finally {
      await embedder.close();
    }
  });

  it("makes the vector side of a hybrid search find what full-text cannot, through index.embedding = local", async () => {
    const project = join(home, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(
      join(project, "src/zoo.ts"),
      "export function describeZebra(): string {\n  return 'black and white stripes';\n}\n",
    );
    writeFileSync(
      join(project, "src/load.ts"),
      "export function parseConfigFile(path: string): string {\n  return path;\n}\n",
    );
    const nyzhiHome = join(home, "nyzhi");
    linkTransformersRuntime(nyzhiHome, transformers?.nodeModules ?? "");
    const env = { NYZHI_HOME: nyzhiHome };
    const config = configSchema.parse({
      index: { embedding: "local", embedding_model: TINY_MODEL_ID, model_dir: models },
    });

    const fullText = createIndex({ root: project, env, config, embedder: null });
    await fullText.update();
    expect(await fullText.search("equine")).toEqual([]);
    await fullText.clear();
    await fullText.close();

    const index = createIndex({ root: project, env, config });
    try {
      const status = await index.status();
      expect(status.embedder).toBe("local:tiny/embed");
      expect(status.reason).toContain(modelFolder);
      const result = await index.update();
      expect(result.embedded).toBe(result.chunks);
      expect((await index.status()).builtWith).toBe("local:tiny/embed:4");
      const found = await index.search("equine");
      expect(found[0]).toMatchObject({ path: "src/zoo.ts", symbol: "describeZebra" });
    } finally {
      await index.close();
    }
  });
});
