import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

// Three builds: the bin (`dist/nyz.cjs`, tiny, CommonJS), the library API (ES modules), and every
// command with its dependencies in one CommonJS bundle (`dist/nyz-main.cjs`) that the bin runs
// through V8's code cache. Loading hundreds of small files from node_modules costs more start-up
// time than one larger file. Native addons stay external.
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

const shared = {
  target: "node20",
  platform: "node",
  sourcemap: true,
  // Everything but native addons (and the packages that load them) is bundled.
  noExternal: [/^(?!@napi-rs\/|@lancedb\/|onnxruntime|@huggingface\/)/],
  external: ["@napi-rs/keyring", "@lancedb/lancedb", "onnxruntime-node", "@huggingface/transformers"],
  esbuildPlugins: [zodEnglishOnly],
} satisfies Options;

export default defineConfig([
  {
    // The bin: CommonJS (no ES module loader at start-up) and built-ins only; it runs the bundle below.
    ...shared,
    // The code-cache loader also on its own, for the end-to-end test that drives it directly.
    entry: { nyz: "src/bin/nyz.ts", "code-cache": "src/bin/code-cache.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    splitting: false,
    sourcemap: false,
    define: { __NYZHI_VERSION__: JSON.stringify(version) },
  },
  {
    // The library API.
    ...shared,
    entry: { index: "src/index.ts" },
    format: ["esm"],
    dts: { entry: { index: "src/index.ts" } },
    splitting: true,
    banner: {
      js: 'import { createRequire as __nyzhiCreateRequire } from "node:module"; const require = __nyzhiCreateRequire(import.meta.url);',
    },
    define: { __NYZHI_VERSION__: JSON.stringify(version) },
  },
  {
    // Every command in one CommonJS file, which the bin runs through V8's code cache
    // (src/bin/code-cache.ts; ES modules have no code cache on Node 20).
    ...shared,
    entry: { "nyz-main": "src/main.ts" },
    format: ["cjs"],
    splitting: false,
    // The ES build keeps the source maps; this bundle would add 11 MB of map to the package.
    sourcemap: false,
    // Whitespace and syntax minified, names kept (stack traces stay readable): a third smaller, so
    // less to read and hold at every start-up.
    minifyWhitespace: true,
    minifySyntax: true,
    // Node's fetch globals (`Headers`, `FormData`, `Request`, `Response`) load all of undici on
    // first use (~20–30 ms), and the SDKs touch them on every first request although their fetch is
    // nodeHttpFetch. In this bundle those names refer to @nyzhi/provider's stand-ins instead.
    inject: [
      fileURLToPath(new URL("./node_modules/@nyzhi/provider/dist/http/web-globals.js", import.meta.url)),
    ],
    // `import()` becomes `require()`: code run by a vm.Script has no module loader for `import()`.
    esbuildOptions(options) {
      options.supported = { ...options.supported, "dynamic-import": false };
    },
    // "use strict" first, so the whole bundle stays strict as the ES modules are.
    banner: {
      js: '"use strict"; var __nyzhiImportMetaUrl = require("node:url").pathToFileURL(__filename).href;',
    },
    define: { __NYZHI_VERSION__: JSON.stringify(version), "import.meta.url": "__nyzhiImportMetaUrl" },
    async onSuccess() {
      // ASCII only, so the bin's source string is one byte per character (half the memory of a
      // two-byte string, which one non-ASCII character would make it). esbuild already escapes
      // strings and regexes; what is left is in comments, where a `\uXXXX` escape reads as well
      // (and means the same in a string if ever one is missed).
      const bundle = new URL("./dist/nyz-main.cjs", import.meta.url);
      const text = readFileSync(bundle, "utf8").replace(
        /[^\x00-\x7f]/g,
        (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
      writeFileSync(bundle, text);
      // The code cache is keyed by this hash, so a rebuilt bundle never meets a stale cache.
      const hash = createHash("sha256").update(text).digest("hex");
      writeFileSync(new URL("./dist/nyz-main.cjs.sha256", import.meta.url), `${hash}\n`);
    },
  },
]);
