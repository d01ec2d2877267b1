import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { configSchema, type NyzhiConfig } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseEmbedder } from "./choose-embedder.js";

let home: string;

function config(index: Record<string, unknown>, provider: Record<string, unknown> = {}): NyzhiConfig {
  return configSchema.parse({ index, provider });
}

/** A folder whose node_modules holds a stand-in transformers.js, to resolve from. */
function fakeTransformersFolder(): string {
  const folder = join(home, "host");
  const packageFolder = join(folder, "node_modules", "@huggingface", "transformers");
  mkdirSync(packageFolder, { recursive: true });
  writeFileSync(
    join(packageFolder, "package.json"),
    JSON.stringify({ name: "@huggingface/transformers", main: "index.js" }),
  );
  writeFileSync(join(packageFolder, "index.js"), "module.exports = {};\n");
  return pathToFileURL(join(folder, "entry.js")).href;
}

function fakeModel(root: string, model: string): void {
  const folder = join(root, model);
  mkdirSync(join(folder, "onnx"), { recursive: true });
  writeFileSync(join(folder, "config.json"), "{}");
  writeFileSync(join(folder, "tokenizer.json"), "{}");
  writeFileSync(join(folder, "onnx", "model.onnx"), "");
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "nyzhi-embedder-choice-"));
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("chooseEmbedder", () => {
  const noTransformers = pathToFileURL(join(tmpdir(), "nowhere", "entry.js")).href;

  it("auto: the first remote with a key, in the order voyage, openai, gemini", async () => {
    const env = { NYZHI_HOME: home, OPENAI_API_KEY: "sk", GEMINI_API_KEY: "gm" };
    const choice = await chooseEmbedder({ config: config({}), env, transformersFrom: noTransformers });
    expect(choice).toMatchObject({ provider: "openai", model: "text-embedding-3-small", warning: undefined });
    expect(choice.reason).toBe('index.embedding = "auto": a key for openai is set.');
    expect(choice.create()?.id).toBe("openai:text-embedding-3-small:1536");
  });

  it("auto: the host's key lookup comes first, and a config api_key counts", async () => {
    const env = { NYZHI_HOME: home };
    const fromHost = await chooseEmbedder({
      config: config({}),
      env,
      getKey: (provider) => (provider === "gemini" ? "from-auth" : undefined),
      transformersFrom: noTransformers,
    });
    expect(fromHost.provider).toBe("gemini");
    const fromConfig = await chooseEmbedder({
      config: config({}, { voyage: { api_key: "pa" } }),
      env,
      transformersFrom: noTransformers,
    });
    expect(fromConfig.provider).toBe("voyage");
  });

  it("auto without keys: a local model on disk, else full-text only, saying why", async () => {
    const env = { NYZHI_HOME: home };
    const bare = await chooseEmbedder({ config: config({}), env, transformersFrom: noTransformers });
    expect(bare).toMatchObject({ provider: "none", warning: undefined });
    expect(bare.reason).toBe(
      'index.embedding = "auto": no embeddings key is set and no local model is ready (transformers.js is not installed), so full-text (BM25) search only.',
    );

    const host = fakeTransformersFolder();
    const noModel = await chooseEmbedder({ config: config({}), env, transformersFrom: host });
    expect(noModel.provider).toBe("none");
    expect(noModel.reason).toContain("model Xenova/all-MiniLM-L6-v2 is not in");

    const models = join(home, "models");
    fakeModel(models, "Xenova/all-MiniLM-L6-v2");
    const withModel = await chooseEmbedder({
      config: config({ model_dir: models }),
      env,
      transformersFrom: host,
    });
    expect(withModel).toMatchObject({ provider: "local", model: "Xenova/all-MiniLM-L6-v2" });
    expect(withModel.reason).toContain(join(models, "Xenova/all-MiniLM-L6-v2"));
    expect(withModel.create()?.id).toBe("local:Xenova/all-MiniLM-L6-v2:384");
  });

  it("local without transformers.js: full-text only, and one line saying how to add it", async () => {
    const env = { NYZHI_HOME: home };
    const choice = await chooseEmbedder({
      config: config({ embedding: "local" }),
      env,
      transformersFrom: noTransformers,
    });
    expect(choice.provider).toBe("none");
    expect(choice.warning).toBe(
      `Local embeddings need transformers.js, which is not installed: run \`npm install --prefix "${join(home, "data", "index", "runtime")}" @huggingface/transformers\` (~470 MB), or set index.embedding to a remote provider.`,
    );
  });

  it("a named provider without a key: full-text only, with a warning naming the fix", async () => {
    const choice = await chooseEmbedder({
      config: config({ embedding: "voyage" }),
      env: { NYZHI_HOME: home },
    });
    expect(choice.provider).toBe("none");
    expect(choice.warning).toBe(
      'index.embedding = "voyage" but no voyage key: set VOYAGE_API_KEY, provider.voyage.api_key, or run `nyz login voyage`.',
    );
  });

  it("none, tfidf and ollama", async () => {
    const env = { NYZHI_HOME: home, OPENAI_API_KEY: "sk" };
    expect((await chooseEmbedder({ config: config({ embedding: "none" }), env })).provider).toBe("none");
    const tfidf = await chooseEmbedder({ config: config({ embedding: "tfidf" }), env });
    expect(tfidf.provider).toBe("none");
    expect(tfidf.reason).toContain("replaced by full-text (BM25) search");
    const ollama = await chooseEmbedder({
      config: config({ embedding: "ollama", embedding_model: "mxbai-embed-large" }),
      env,
    });
    expect(ollama).toMatchObject({ provider: "ollama", model: "mxbai-embed-large" });
    expect(ollama.create()?.id).toBe("ollama:mxbai-embed-large");
  });
});
