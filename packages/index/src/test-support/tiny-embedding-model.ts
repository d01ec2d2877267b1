import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findTransformers } from "../embedders/find-transformers.js";

/**
 * A tiny ONNX embedding model built by the tests (no weights can be downloaded here): one Gather
 * of a word table, read by transformers.js as a BERT model whose `last_hidden_state` is mean-pooled.
 * Words of one concept share a vector, so `equine` lands on `zebra` while no file says `equine`.
 * Needs Debian's `python3-onnx` to write the protobuf, and transformers.js installed.
 */
export const TINY_MODEL_ID = "tiny/embed";
const WORDS = [
  "[PAD]",
  "[UNK]",
  "zebra",
  "equine",
  "stripes",
  "black",
  "white",
  "config",
  "parse",
  "file",
  "settings",
];
const CONCEPTS: Record<string, number[]> = {
  zebra: [1, 0, 0, 0],
  equine: [1, 0, 0, 0],
  stripes: [1, 0, 0, 0],
  black: [1, 0, 0, 0],
  white: [1, 0, 0, 0],
  config: [0, 1, 0, 0],
  file: [0, 1, 0, 0],
  settings: [0, 1, 0, 0],
  parse: [0, 0, 1, 0],
};
const HIDDEN = 4;

const MAKE_MODEL_PY = `
import sys, onnx
from onnx import helper, TensorProto, numpy_helper
import numpy as np
out, vocab, hidden = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
table = np.array([float(x) for x in sys.argv[4].split(",")], dtype=np.float32).reshape(vocab, hidden)
ids = helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"])
mask = helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])
state = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden])
gather = helper.make_node("Gather", ["embeddings", "input_ids"], ["last_hidden_state"], axis=0)
graph = helper.make_graph([gather], "tiny", [ids, mask], [state], [numpy_helper.from_array(table, name="embeddings")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, out)
`;

/** A Python that can `import onnx`, or undefined. */
export function findPythonWithOnnx(): string | undefined {
  return ["/usr/bin/python3", "python3"].find(
    (python) => spawnSync(python, ["-c", "import onnx"], { stdio: "ignore" }).status === 0,
  );
}

/**
 * transformers.js for the tests: nyzhi's own dependency when installed, else the folder named by
 * NYZHI_TEST_TRANSFORMERS_DIR (one holding `node_modules/@huggingface/transformers`).
 */
export function findTestTransformers(): { entry: string; nodeModules: string } | undefined {
  const own = findTransformers({}, import.meta.url);
  const fromEnv = process.env.NYZHI_TEST_TRANSFORMERS_DIR;
  const entry = own ?? (fromEnv ? findTransformers({}, join(fromEnv, "package.json")) : undefined);
  if (!entry) return undefined;
  const marker = "node_modules/@huggingface/transformers";
  const nodeModules = entry.slice(0, entry.lastIndexOf(marker) + "node_modules".length);
  return { entry, nodeModules };
}

/** What building and running the tiny model takes, found on this machine. */
export interface TinyModelTools {
  transformers: { entry: string; nodeModules: string };
  python: string;
}

/**
 * transformers.js and a Python with onnx, or why the tiny model cannot run here (for a test's or a
 * benchmark's skip message).
 */
export function findTinyModelTools(): TinyModelTools | { missing: string } {
  const transformers = findTestTransformers();
  const python = findPythonWithOnnx();
  if (transformers && python) return { transformers, python };
  const missing = [
    transformers
      ? undefined
      : "transformers.js is not installed (set NYZHI_TEST_TRANSFORMERS_DIR to a folder holding node_modules/@huggingface/transformers; .ci/run installs one)",
    python ? undefined : "no python3 can `import onnx` (install Debian's python3-onnx)",
  ].filter(Boolean);
  return { missing: missing.join("; ") };
}

/** Writes the model under `<modelsRoot>/tiny/embed/` and returns that folder. */
export function writeTinyModel(modelsRoot: string, python: string): string {
  const folder = join(modelsRoot, TINY_MODEL_ID);
  mkdirSync(join(folder, "onnx"), { recursive: true });
  const script = join(modelsRoot, "make-model.py");
  writeFileSync(script, MAKE_MODEL_PY);
  const table = WORDS.flatMap((word) => CONCEPTS[word] ?? [0, 0, 0, 0.01]);
  execFileSync(python, [
    script,
    join(folder, "onnx", "model.onnx"),
    String(WORDS.length),
    String(HIDDEN),
    table.join(","),
  ]);
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  writeFileSync(
    join(folder, "tokenizer.json"),
    JSON.stringify({
      version: "1.0",
      truncation: null,
      padding: null,
      added_tokens: [special(0, "[PAD]"), special(1, "[UNK]")],
      normalizer: { type: "Lowercase" },
      pre_tokenizer: { type: "Whitespace" },
      post_processor: null,
      decoder: null,
      model: {
        type: "WordLevel",
        vocab: Object.fromEntries(WORDS.map((word, id) => [word, id])),
        unk_token: "[UNK]",
      },
    }),
  );
  writeFileSync(
    join(folder, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "PreTrainedTokenizer",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      model_max_length: 512,
    }),
  );
  writeFileSync(
    join(folder, "config.json"),
    JSON.stringify({ model_type: "bert", hidden_size: HIDDEN, architectures: ["BertModel"] }),
  );
  return folder;
}

/** Makes transformers.js findable in `<NYZHI_HOME>/data/index/runtime`, as a user's install would be. */
export function linkTransformersRuntime(nyzhiHome: string, nodeModules: string): void {
  const runtime = join(nyzhiHome, "data", "index", "runtime");
  mkdirSync(runtime, { recursive: true });
  writeFileSync(join(runtime, "package.json"), '{ "private": true }\n');
  symlinkSync(nodeModules, join(runtime, "node_modules"), "dir");
}
