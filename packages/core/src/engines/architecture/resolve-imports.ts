import { posix } from "node:path";
import type { FileFacts } from "./project-analysis.js";

const JS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Internal edges (importing file → imported file) and the external packages each file uses. */
export interface ResolvedImports {
  internal: Map<string, Set<string>>;
  external: Map<string, Set<string>>;
}

/**
 * Resolves import specifiers to project files. JS/TS: relative specifiers, with the extension
 * left out, `.js` written for a `.ts` file (NodeNext), or a folder's `index`. Python: relative
 * imports from the file's package, absolute ones from the project root or `src/`, as `pkg/mod.py`
 * or `pkg/mod/__init__.py`. Anything else is an external package (its first path segment).
 */
export function resolveImports(facts: readonly FileFacts[], allPaths: ReadonlySet<string>): ResolvedImports {
  const internal = new Map<string, Set<string>>();
  const external = new Map<string, Set<string>>();
  for (const file of facts) {
    const targets = new Set<string>();
    internal.set(file.file, targets);
    for (const specifier of file.imports) {
      const target =
        file.language === "python"
          ? resolvePython(file.file, specifier, allPaths)
          : resolveJavaScript(file.file, specifier, allPaths);
      if (target && target !== file.file) targets.add(target);
      else if (!target) {
        const name = externalName(specifier, file.language === "python");
        if (name) (external.get(name) ?? external.set(name, new Set()).get(name)!).add(file.file);
      }
    }
  }
  return { internal, external };
}

/** The file a JS/TS import specifier names, if it is in the project. */
export function resolveJavaScript(
  from: string,
  specifier: string,
  allPaths: ReadonlySet<string>,
): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = base.replace(/\.(?:[cm]?js|jsx)$/, "");
  const candidates = [
    base,
    ...JS_EXTENSIONS.map((extension) => `${stem}${extension}`),
    ...JS_EXTENSIONS.map((extension) => `${base}/index${extension}`),
  ];
  return candidates.find((candidate) => allPaths.has(candidate));
}

/** The file a Python module names (`pkg.mod|pkg` tries `pkg.mod` first), if it is in the project. */
export function resolvePython(
  from: string,
  specifier: string,
  allPaths: ReadonlySet<string>,
): string | undefined {
  for (const module of specifier.split("|")) {
    const dots = /^\.*/.exec(module)![0].length;
    const rest = module.slice(dots).split(".").filter(Boolean).join("/");
    const bases: string[] = [];
    if (dots > 0) {
      let directory = posix.dirname(from);
      for (let level = 1; level < dots; level++) directory = posix.dirname(directory);
      bases.push(directory === "." ? rest : rest ? `${directory}/${rest}` : directory);
    } else {
      bases.push(rest, `src/${rest}`);
      const top = from.split("/")[0];
      if (top && top !== from && !rest.startsWith(`${top}/`)) bases.push(`${top}/${rest}`);
    }
    for (const base of bases) {
      if (!base) continue;
      if (allPaths.has(`${base}.py`)) return `${base}.py`;
      if (allPaths.has(`${base}/__init__.py`)) return `${base}/__init__.py`;
    }
  }
  return undefined;
}

function externalName(specifier: string, python: boolean): string | undefined {
  if (python) {
    const module = specifier.split("|").pop()!;
    if (module.startsWith(".")) return undefined;
    return module.split(".")[0] || undefined;
  }
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.replace(/^node:/, "node:").split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}
