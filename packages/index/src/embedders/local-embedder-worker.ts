/**
 * The worker thread's source, run with `new Worker(source, { eval: true })` so that it needs no
 * file of its own beside the bundle. It loads transformers.js (CommonJS entry from workerData),
 * builds a feature-extraction pipeline once, and answers `{ id, texts }` messages with mean-pooled,
 * normalised vectors as one transferred Float32Array.
 */
export const LOCAL_EMBEDDER_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { existsSync, readdirSync } = require("node:fs");
const { join } = require("node:path");
let ready;
function dtypeFor(folder) {
  let names = [];
  try { names = readdirSync(join(folder, "onnx")); } catch {}
  if (names.includes("model.onnx")) return "fp32";
  if (names.includes("model_quantized.onnx")) return "q8";
  if (names.includes("model_fp16.onnx")) return "fp16";
  return undefined;
}
function load() {
  if (!ready) {
    ready = (async () => {
      const transformers = require(workerData.transformersPath);
      const env = transformers.env;
      env.allowRemoteModels = workerData.allowRemote;
      env.allowLocalModels = true;
      if (workerData.localRoot) env.localModelPath = workerData.localRoot;
      env.cacheDir = workerData.cacheDir;
      const options = {};
      const dtype = workerData.modelFolder ? dtypeFor(workerData.modelFolder) : undefined;
      if (dtype) options.dtype = dtype;
      if (!workerData.allowRemote) options.local_files_only = true;
      return transformers.pipeline("feature-extraction", workerData.model, options);
    })();
  }
  return ready;
}
parentPort.on("message", async (message) => {
  try {
    const extractor = await load();
    const output = await extractor(message.texts, { pooling: "mean", normalize: true });
    const dims = output.dims[output.dims.length - 1];
    const data = Float32Array.from(output.data);
    parentPort.postMessage({ id: message.id, data, dims }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error && error.message ? error.message : String(error) });
  }
});
`;
