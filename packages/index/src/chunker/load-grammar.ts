import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Language, Parser } from "web-tree-sitter";
import type { GrammarName } from "./languages.js";

type WebTreeSitter = typeof import("web-tree-sitter");

let runtime: Promise<WebTreeSitter> | undefined;
const parsers = new Map<GrammarName, Promise<Parser>>();

/**
 * A parser for the grammar, loading web-tree-sitter and the grammar's wasm once per process on
 * first use (nothing is loaded at import time, so hosts that never chunk pay nothing). Rejects
 * if a wasm file cannot be found or loaded; the chunker then falls back to text windows.
 */
export function getParser(grammar: GrammarName): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = createParser(grammar);
    parsers.set(grammar, parser);
    // A failed load is not cached: the next file tries again (and fails or logs again).
    parser.catch(() => parsers.delete(grammar));
  }
  return parser;
}

async function createParser(grammar: GrammarName): Promise<Parser> {
  const treeSitter = await loadRuntime();
  const wasmDirectory = join(dirname(resolvePackageFile("@vscode/tree-sitter-wasm/package.json")), "wasm");
  const language: Language = await treeSitter.Language.load(
    await readFile(join(wasmDirectory, `tree-sitter-${grammar}.wasm`)),
  );
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  return parser;
}

function loadRuntime(): Promise<WebTreeSitter> {
  runtime ??= (async () => {
    const treeSitter = await import("web-tree-sitter");
    // The runtime's own wasm is handed over as bytes, so it loads the same way when this module
    // is bundled into another package (where web-tree-sitter's relative URL would be wrong).
    const wasmBinary = await readFile(resolvePackageFile("web-tree-sitter/web-tree-sitter.wasm"));
    await treeSitter.Parser.init({ wasmBinary });
    return treeSitter;
  })();
  runtime.catch(() => {
    runtime = undefined;
  });
  return runtime;
}

/**
 * Resolves a file of one of this package's dependencies: from this module, or — when this module
 * was bundled into a host package that does not list the dependency — from `@nyzhi/index`'s own
 * installed location.
 */
function resolvePackageFile(specifier: string): string {
  const fromHere = createRequire(import.meta.url);
  try {
    return fromHere.resolve(specifier);
  } catch (error) {
    try {
      const indexPackage = fromHere.resolve("@nyzhi/index/package.json");
      return createRequire(indexPackage).resolve(specifier);
    } catch {
      throw error;
    }
  }
}
