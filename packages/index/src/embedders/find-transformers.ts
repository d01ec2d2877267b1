import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Environment, resolveDirs } from "@nyzhi/config";

/** The npm package of transformers.js, an optional dependency (~470 MB with onnxruntime). */
export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";
/** The local model `index.embedding = "local"` uses unless `index.embedding_model` names another. */
export const DEFAULT_LOCAL_MODEL = "Xenova/all-MiniLM-L6-v2";
/** Known vector lengths of local models. */
export const LOCAL_MODEL_DIMENSIONS: Readonly<Record<string, number>> = { "Xenova/all-MiniLM-L6-v2": 384 };

/**
 * Where nyzhi looks for transformers.js besides its own node_modules: a folder of its own under
 * the data dir, so installing it never touches nyzhi's install.
 */
export function transformersRuntimeDir(env: Environment): string {
  return join(resolveDirs(env).index, "runtime");
}

/** Where downloaded models are cached: `<cache>/models/<model id>/`. */
export function modelCacheDir(env: Environment): string {
  return join(resolveDirs(env).cache, "models");
}

/** The one line that says how to add transformers.js. */
export function transformersInstallHint(env: Environment): string {
  return `Local embeddings need transformers.js, which is not installed: run \`npm install --prefix "${transformersRuntimeDir(env)}" ${TRANSFORMERS_PACKAGE}\` (~470 MB), or set index.embedding to a remote provider.`;
}

/**
 * The CommonJS entry of transformers.js: from nyzhi's own dependencies, else from the runtime
 * folder. Undefined when it is not installed.
 */
export function findTransformers(env: Environment, from: string = import.meta.url): string | undefined {
  const bases = [from, join(transformersRuntimeDir(env), "package.json")];
  for (const base of bases) {
    try {
      return createRequire(base).resolve(TRANSFORMERS_PACKAGE);
    } catch {
      // Not installed there.
    }
  }
  return undefined;
}

/** A model folder as transformers.js reads it: config, tokenizer and at least one ONNX file. */
export function modelFolderComplete(folder: string): boolean {
  if (!existsSync(join(folder, "config.json")) || !existsSync(join(folder, "tokenizer.json"))) return false;
  try {
    return readdirSync(join(folder, "onnx")).some((name) => name.endsWith(".onnx"));
  } catch {
    return false;
  }
}

/** The folder holding `model` (`index.model_dir` first, then the cache), or undefined. */
export function findLocalModel(
  model: string,
  options: { modelDir: string | undefined; env: Environment },
): string | undefined {
  const roots = [options.modelDir, modelCacheDir(options.env)].filter((root): root is string =>
    Boolean(root),
  );
  return roots.map((root) => join(root, model)).find(modelFolderComplete);
}
