import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { defineConfig, type Options } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

// The bin is tiny: `nyz --version` answers from a constant without loading anything else;
// every command's module (and the heavy SDKs, TUI, index, MCP behind it) loads through `import()`.
// Dependencies are bundled into a few chunks: loading hundreds of small files from node_modules
// costs more start-up time than parsing one larger file. Native addons stay external.
/**
 * zod's `z` namespace (and `zod/v4/core`, which the MCP SDK imports) re-exports all of its ~60 error-message locales (`z.locales`), which esbuild
 * cannot drop: 360 KB that every start-up would parse. nyzhi only uses the English messages (the
 * default zod installs itself), so the bundle gets a `locales` module holding just `en`.
 */
const zodEnglishOnly: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), "../locales/index.js"), namespace: "zod-english-only" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

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
  esbuildPlugins: [zodEnglishOnly],
});
