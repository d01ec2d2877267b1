import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";
import { HOST_MODULES } from "./src/app/host-modules.js";
import {
  asciiBundleWithHash,
  inkWithoutTopLevelAwait,
  yogaWithoutTopLevelAwait,
} from "./tsup-app-plugins.js";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

// The builds: the bin (`dist/nyz.cjs`, tiny, CommonJS), the library API (ES modules), the app
// (`dist/app.cjs`, below), and every
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

/**
 * In the app's bundle, `@nyzhi/core` and `@nyzhi/config` are the modules the CommonJS bundle of
 * the commands has already loaded (handed over on `globalThis`, see commands/app-command.ts):
 * one copy of core in memory, and nothing of it parsed twice. Each becomes a module exporting the
 * names `src/app/host-modules.ts` lists, so a tui import of any other name fails the build.
 */
const hostModules: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "nyzhi-host-modules",
  setup(build) {
    build.onResolve({ filter: /^@nyzhi\/(core|config)$/ }, (args) => ({
      path: args.path,
      namespace: "nyzhi-host-modules",
    }));
    build.onLoad({ filter: /.*/, namespace: "nyzhi-host-modules" }, (args) => {
      const names = Object.keys(HOST_MODULES[args.path as keyof typeof HOST_MODULES]);
      const source = `const hostModules = globalThis[Symbol.for("nyzhi.hostModules")];
if (!hostModules || !hostModules[${JSON.stringify(args.path)}]) throw new Error("nyz: the app must be loaded by nyz (no ${args.path} handed over)");
export const { ${names.join(", ")} } = hostModules[${JSON.stringify(args.path)}];`;
      return { contents: source, loader: "js" };
    });
  },
};

/**
 * ink connects to React's devtools when DEV=true, importing `react-devtools-core`, which is not
 * installed; bundled, that import would be a top-level one and fail every start. A no-op instead.
 */
const noReactDevtools: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "no-react-devtools",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: "noop",
      namespace: "no-react-devtools",
    }));
    build.onLoad({ filter: /.*/, namespace: "no-react-devtools" }, () => ({
      contents: "export default { initialize() {}, connectToDevTools() {} };",
      loader: "js",
    }));
  },
};

/**
 * The app's bundle takes @nyzhi/tui from its source, where the modules it loads on first use
 * (jsdiff, highlight.js) are literal `require` calls that esbuild bundles as lazily run modules
 * (the package's own build turns them into calls esbuild cannot follow).
 */
const tuiFromSource: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "tui-from-source",
  setup(build) {
    build.onResolve({ filter: /^@nyzhi\/tui$/ }, () => ({
      path: fileURLToPath(new URL("../tui/src/index.ts", import.meta.url)),
    }));
  },
};

/**
 * In the app's bundle every `string-width` (ink's layout and text, wrap-ansi, cli-truncate, the
 * frame writer) is the tui's `fast-string-width`: the same answers, a row of narrow characters
 * measured by its length instead of segmented into graphemes each frame. Only that module itself
 * reaches the real package.
 */
const fastStringWidth: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "fast-string-width",
  setup(build) {
    const wrapper = fileURLToPath(new URL("../tui/src/terminal/fast-string-width.ts", import.meta.url));
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer === wrapper ? undefined : { path: wrapper },
    );
  },
};

const shared = {
  target: "node20",
  platform: "node",
  sourcemap: true,
  // Everything is bundled but native addons (and the packages that load them) and the proxy
  // clients, which load only when a proxy variable is set (see @nyzhi/config network/): kept out,
  // they add nothing to what every start-up reads. web-tree-sitter too: bundled into the CommonJS
  // bundle its loader's `require` breaks, and it loads only on a first parse (@nyzhi/index).
  noExternal: [
    /^(?!@napi-rs\/|@lancedb\/|onnxruntime|@huggingface\/|undici$|https?-proxy-agent$|web-tree-sitter$)/,
  ],
  external: [
    "@napi-rs/keyring",
    "@lancedb/lancedb",
    "onnxruntime-node",
    "@huggingface/transformers",
    "undici",
    "https-proxy-agent",
    "http-proxy-agent",
    "web-tree-sitter",
  ],
  esbuildPlugins: [zodEnglishOnly],
} satisfies Options;

export default defineConfig([
  {
    // The interactive app (`nyz` on a terminal): @nyzhi/tui, ink and React in one CommonJS file, run
    // by the bin through V8's code cache as the bundle of the commands is, and loaded only when the
    // app opens, so other commands never parse React. React's production build. yoga-layout and
    // ink's reconciler lose their top-level awaits (tsup-app-plugins.ts; decision 019).
    ...shared,
    entry: { app: "src/app/app-entry.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    splitting: false,
    sourcemap: false,
    minifyWhitespace: true,
    minifySyntax: true,
    esbuildPlugins: [
      hostModules,
      noReactDevtools,
      tuiFromSource,
      fastStringWidth,
      yogaWithoutTopLevelAwait,
      inkWithoutTopLevelAwait,
    ],
    // The tui's .tsx, as its tsconfig compiles them (`jsx: react-jsx`); `import()` becomes
    // `require()` (a vm.Script has no module loader).
    esbuildOptions(options) {
      options.jsx = "automatic";
      options.supported = { ...options.supported, "dynamic-import": false };
    },
    // `fetch` is shadowed: yoga-layout's loader asks `typeof fetch` (its wasm is inlined and never
    // fetched), and Node's `fetch` global loads all of undici on that first touch (~12 ms).
    banner: {
      js: '"use strict"; var __nyzhiImportMetaUrl = require("node:url").pathToFileURL(__filename).href; var fetch = undefined;',
    },
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      "import.meta.url": "__nyzhiImportMetaUrl",
    },
    async onSuccess() {
      asciiBundleWithHash(new URL("./dist/app.cjs", import.meta.url));
    },
  },
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
    // The app's code index child (`nyz __index-process`): @nyzhi/index alone, run by the bin through
    // V8's code cache like the bundle below, so the child neither parses nor holds every command.
    ...shared,
    entry: { "index-process": "src/bin/index-process-main.ts" },
    format: ["cjs"],
    splitting: false,
    sourcemap: false,
    minifyWhitespace: true,
    minifySyntax: true,
    esbuildOptions(options) {
      options.supported = { ...options.supported, "dynamic-import": false };
    },
    banner: {
      js: '"use strict"; var __nyzhiImportMetaUrl = require("node:url").pathToFileURL(__filename).href;',
    },
    define: { "import.meta.url": "__nyzhiImportMetaUrl" },
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
      asciiBundleWithHash(new URL("./dist/nyz-main.cjs", import.meta.url));
    },
  },
]);
