import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { compareText } from "@nyzhi/config";
import { analyzeJavaScriptFile } from "./analyze-javascript-file.js";
import { analyzePythonFile } from "./analyze-python-file.js";
import { detectFrameworks } from "./detect-frameworks.js";
import { detectPatterns } from "./detect-patterns.js";
import { summarizeImportGraph } from "./import-graph.js";
import type {
  Endpoint,
  FileFacts,
  ProjectAnalysis,
  ProjectOverview,
  SourceLanguage,
} from "./project-analysis.js";
import { resolveImports, resolveJavaScript } from "./resolve-imports.js";
import { MAX_PARSED_FILE_BYTES, type ProjectScan, scanProjectFiles } from "./scan-project-files.js";

const readText = (path: string) => readFile(path, "utf8").catch(() => undefined);

/** Conventional entry files, in the order they are listed. */
const ENTRY_FILES =
  /^(?:src\/)?(?:index|main|server|app|cli)\.[cm]?[jt]sx?$|(?:^|\/)(?:__main__|main|app|manage|wsgi|asgi)\.py$/;

/**
 * Analyses a TypeScript/JavaScript and Python project from its files alone, each parsed with
 * tree-sitter (`parseSource` of `@nyzhi/index`): imports (resolved to
 * an import graph), route handlers (Express-style routers with their mount prefixes, NestJS,
 * Next.js route files, Flask/FastAPI decorators, Django `urls.py`), data models (classes,
 * interfaces and type literals; Pydantic, ORM and dataclass models), middleware, frameworks,
 * entry points and patterns. Undefined when the project has no supported source files.
 */
export async function analyzeProject(root: string, scan?: ProjectScan): Promise<ProjectAnalysis | undefined> {
  const scanned = scan ?? (await scanProjectFiles(root));
  const sources = scanned.files.filter((file) => file.language && file.size <= MAX_PARSED_FILE_BYTES);
  if (sources.length === 0) return undefined;
  // Loaded here, not at start-up: the parser runtime and its grammars cost nothing until this runs.
  const { parseSource } = await import("@nyzhi/index");
  const texts = new Map<string, string>();
  const facts: FileFacts[] = [];
  for (const file of sources) {
    const text = await readText(join(root, file.path));
    if (text === undefined) continue;
    texts.set(file.path, text);
    const language = file.language as SourceLanguage;
    const fileFacts = await parseSource({ path: file.path, content: text }, (tree) =>
      language === "python"
        ? analyzePythonFile(file.path, tree)
        : analyzeJavaScriptFile(file.path, tree, language),
    );
    if (fileFacts) facts.push(fileFacts);
  }
  const allPaths = new Set(scanned.files.map((file) => file.path));
  const { internal, external } = resolveImports(facts, allPaths);
  applyMountPrefixes(facts, allPaths);

  const packageJson = await readText(join(root, "package.json")).then(parseJson);
  const pythonRequirements = (
    await Promise.all(
      ["requirements.txt", "pyproject.toml", "setup.py", "setup.cfg", "Pipfile"].map((name) =>
        readText(join(root, name)),
      ),
    )
  ).join("\n");
  const monorepo =
    allPaths.has("pnpm-workspace.yaml") ||
    Array.isArray((packageJson as { workspaces?: unknown })?.workspaces) ||
    typeof (packageJson as { workspaces?: unknown })?.workspaces === "object";
  const frameworks = detectFrameworks({ packageJson, pythonRequirements }, external.keys());
  const endpoints = facts.flatMap((file) => file.endpoints);
  const languages: Partial<Record<SourceLanguage, number>> = {};
  for (const file of facts) languages[file.language] = (languages[file.language] ?? 0) + 1;
  const overview: ProjectOverview = {
    projectType: describeProjectType({ languages, frameworks, endpoints, monorepo, packageJson }),
    languages,
    entryPoints: entryPoints(packageJson, facts),
    frameworks,
    fileCount: scanned.files.length,
    sourceFileCount: facts.length,
  };
  return {
    version: 1,
    fingerprint: scanned.fingerprint,
    generatedAt: new Date().toISOString(),
    overview,
    patterns: detectPatterns({
      paths: scanned.files.map((file) => file.path),
      facts,
      sources: texts,
      monorepo,
    }),
    callGraph: summarizeImportGraph(internal, external),
    middleware: facts.flatMap((file) => file.middleware),
    endpoints,
    models: rankModels(facts),
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Prefixes routes of a router module with the path it is mounted at (`app.use("/api", users)`). */
function applyMountPrefixes(facts: FileFacts[], allPaths: ReadonlySet<string>): void {
  const byFile = new Map(facts.map((file) => [file.file, file]));
  const prefixed = new Set<string>();
  for (const file of facts) {
    for (const mount of file.mounts) {
      const specifier = file.importedNames[mount.identifier];
      const target = specifier ? resolveJavaScript(file.file, specifier, allPaths) : undefined;
      if (!target || prefixed.has(target)) continue;
      prefixed.add(target);
      for (const endpoint of byFile.get(target)?.endpoints ?? [])
        endpoint.path = joinRoute(mount.prefix, endpoint.path);
    }
  }
}

function joinRoute(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  return joined.length > 1 ? joined.replace(/\/$/, "") : joined;
}

/** Data shapes that look like models first (model/entity folders, ORM kinds), then by property count. */
function rankModels(facts: readonly FileFacts[]) {
  const score = (model: FileFacts["models"][number]) =>
    (["orm", "entity", "pydantic", "dataclass"].includes(model.kind) ? 2 : 0) +
    (/(?:^|\/)(?:models?|entities|entity|schemas?|dto|domain|types)(?:\/|\.|$)/i.test(model.file) ? 1 : 0);
  return facts
    .flatMap((file) => file.models)
    .sort(
      (left, right) =>
        score(right) - score(left) ||
        right.properties.length - left.properties.length ||
        compareText(left.name, right.name),
    );
}

function entryPoints(packageJson: unknown, facts: readonly FileFacts[]): string[] {
  const found: string[] = [];
  const add = (entry: unknown) => {
    if (typeof entry === "string" && entry.trim() && !found.includes(entry))
      found.push(entry.replace(/^\.\//, ""));
  };
  const pkg = packageJson as
    | { main?: unknown; module?: unknown; bin?: unknown; exports?: unknown }
    | undefined;
  add(pkg?.main);
  add(pkg?.module);
  if (typeof pkg?.bin === "string") add(pkg.bin);
  else for (const value of Object.values((pkg?.bin as Record<string, unknown>) ?? {})) add(value);
  const dot =
    typeof pkg?.exports === "object" && pkg.exports !== null
      ? (pkg.exports as Record<string, unknown>)["."]
      : pkg?.exports;
  if (typeof dot === "string") add(dot);
  else if (dot && typeof dot === "object")
    add((dot as Record<string, unknown>).import ?? (dot as Record<string, unknown>).default);
  for (const file of facts) if (file.isMain || ENTRY_FILES.test(file.file)) add(file.file);
  return found.slice(0, 10);
}

function describeProjectType(input: {
  languages: Partial<Record<SourceLanguage, number>>;
  frameworks: readonly string[];
  endpoints: readonly Endpoint[];
  monorepo: boolean;
  packageJson: unknown;
}): string {
  const ranked = (Object.entries(input.languages) as [SourceLanguage, number][]).sort(
    (left, right) => right[1] - left[1],
  );
  const names = { typescript: "TypeScript", javascript: "JavaScript", python: "Python" };
  const language = names[ranked[0]![0]];
  const web = [
    "Express",
    "Fastify",
    "Koa",
    "Hono",
    "NestJS",
    "Flask",
    "FastAPI",
    "Django",
    "Starlette",
    "aiohttp",
    "Tornado",
  ];
  const frontend = ["React", "Vue", "Svelte", "Angular"];
  const server = input.frameworks.find((name) => web.includes(name));
  const ui = input.frameworks.find((name) => frontend.includes(name) || name === "Next.js");
  let kind: string;
  if (server || input.endpoints.length > 0) kind = `web API / service${server ? ` (${server})` : ""}`;
  else if (ui) kind = `web frontend (${ui})`;
  else if ((input.packageJson as { bin?: unknown })?.bin) kind = "command-line tool";
  else kind = "library / application";
  const mixed =
    ranked.length > 1
      ? ` with ${ranked
          .slice(1)
          .map(([name]) => names[name])
          .join(", ")}`
      : "";
  return `${input.monorepo ? "Monorepo: " : ""}${language} ${kind}${mixed}`;
}

/** The project folder's name, for headings. */
export const projectName = (root: string) => basename(root) || root;
