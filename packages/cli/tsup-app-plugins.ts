import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Options } from "tsup";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

/**
 * The build steps that let the interactive app be one CommonJS bundle (`dist/app.cjs`), run by the
 * bin through V8's code cache as the commands' bundle is (decision 019). ES modules get no code
 * cache on Node 20, and two modules of the app's dependencies kept it an ES module: yoga-layout
 * (ink's layout) awaits its WebAssembly at the top level, and ink's reconciler awaits its devtools
 * when `DEV=true`.
 */

const yogaRoot = dirname(
  dirname(dirname(createRequire(import.meta.url).resolve("yoga-layout", { paths: [inkDirectory()] }))),
);

/** Where ink is installed (yoga-layout is its dependency, not ours). */
function inkDirectory(): string {
  const tui = new URL("../tui/package.json", import.meta.url);
  return dirname(createRequire(tui).resolve("ink"));
}

const WASM_DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

/**
 * `yoga-layout` without its top-level await: its Emscripten loader is given an `instantiateWasm`
 * hook that compiles and instantiates the inlined WebAssembly synchronously (`new
 * WebAssembly.Module`, allowed at any size on Node's main thread), after which the loader has run
 * and the module is ready in the same tick. The base64 of the wasm is read out of the loader at
 * build time (its data URI then points at the same string, so it is in the bundle once); a yoga
 * release that no longer inlines it fails this build, naming the file.
 */
export const yogaWithoutTopLevelAwait: Plugin = {
  name: "yoga-without-top-level-await",
  setup(build) {
    const loader = join(yogaRoot, "dist/binaries/yoga-wasm-base64-esm.js");
    build.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: "yoga", namespace: "nyzhi-yoga-sync" }));
    build.onLoad({ filter: /.*/, namespace: "nyzhi-yoga-sync" }, () => ({
      contents: `import loadYoga, { yogaWasmBytes } from ${JSON.stringify(loader)};
import wrapAssembly from ${JSON.stringify(join(yogaRoot, "dist/src/wrapAssembly.js"))};
export * from ${JSON.stringify(join(yogaRoot, "dist/src/generated/YGEnums.js"))};
const yogaModule = {
  instantiateWasm(imports, ready) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(yogaWasmBytes()), imports);
    ready(instance);
    return instance.exports;
  },
};
loadYoga(yogaModule);
if (typeof yogaModule.Node !== "function") throw new Error("nyz: yoga-layout did not start synchronously");
export default wrapAssembly(yogaModule);`,
      resolveDir: yogaRoot,
      loader: "js",
    }));
    build.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const match = WASM_DATA_URI.exec(text);
      if (!match) {
        throw new Error(
          `${args.path}: no inlined WebAssembly found; update tsup-app-plugins.ts for this yoga-layout`,
        );
      }
      return {
        contents: `const yogaWasmBase64 = ${JSON.stringify(match[1])};
export const yogaWasmBytes = () => Buffer.from(yogaWasmBase64, "base64");
${text.replace(match[0], '"data:application/octet-stream;base64," + yogaWasmBase64')}`,
        loader: "js",
      };
    });
  },
};

/**
 * ink's reconciler awaits two things at its top level, both only when `DEV=true`: React devtools
 * (a no-op in this bundle, see `noReactDevtools`) and its own package.json for them. Neither awaits
 * here; the same file otherwise. A change of that file's text fails this build, naming it.
 */
export const inkWithoutTopLevelAwait: Plugin = {
  name: "ink-without-top-level-await",
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const devtools = "await import('./devtools.js');";
      const packageJson = "? await loadPackageJson()";
      if (!text.includes(devtools) || !text.includes(packageJson)) {
        throw new Error(`${args.path}: its top-level awaits changed; update tsup-app-plugins.ts`);
      }
      return {
        contents: text
          .replace(devtools, "import('./devtools.js');")
          .replace(packageJson, "? { name: undefined, version: undefined }"),
        loader: "js",
      };
    });
  },
};

/**
 * After a CommonJS bundle is built: non-ASCII characters escaped (they are only in comments and
 * strings, where `\uXXXX` means the same), so the bin's source string is one byte per character,
 * half the memory of a two-byte string; then `<bundle>.sha256` beside it, by which its code cache
 * is keyed, so a rebuilt bundle never meets a stale cache.
 */
export function asciiBundleWithHash(bundle: URL): void {
  const text = readFileSync(bundle, "utf8").replace(
    /[^\x00-\x7f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  writeFileSync(bundle, text);
  const hash = createHash("sha256").update(text).digest("hex");
  writeFileSync(new URL(`${bundle.href}.sha256`), `${hash}\n`);
}
