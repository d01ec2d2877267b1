import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    // Not part of the package's API (not in `exports`): the tiny ONNX model the tests build, for
    // bench/index, which runs on the built code.
    "test-support/tiny-embedding-model": "src/test-support/tiny-embedding-model.ts",
  },
  format: ["esm"],
  dts: true,
  clean: true,
  splitting: false,
  target: "node20",
  sourcemap: true,
});
