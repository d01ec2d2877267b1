import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

// The bin is tiny: `nyz --version` answers from a constant without loading anything else;
// every command's module (and the heavy SDKs, TUI, index, MCP behind it) loads through `import()`.
// Dependencies are bundled into a few chunks: loading hundreds of small files from node_modules
// costs more start-up time than parsing one larger file. Native addons stay external.
export default defineConfig({
  entry: { nyz: "src/bin/nyz.ts", index: "src/index.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
  target: "node20",
  platform: "node",
  splitting: true,
  sourcemap: true,
  // Everything but native addons (and the packages that load them) is bundled.
  noExternal: [/^(?!@napi-rs\/|@lancedb\/|onnxruntime|@huggingface\/)/],
  external: ["@napi-rs/keyring", "@lancedb/lancedb", "onnxruntime-node", "@huggingface/transformers"],
  banner: {
    js: 'import { createRequire as __nyzhiCreateRequire } from "node:module"; const require = __nyzhiCreateRequire(import.meta.url);',
  },
  define: { __NYZHI_VERSION__: JSON.stringify(version) },
});
