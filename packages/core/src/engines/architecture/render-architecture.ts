import type { ProjectAnalysis } from "./project-analysis.js";

/** The sections `get_architecture_knowledge` answers with. */
export const ARCHITECTURE_SECTIONS = [
  "overview",
  "patterns",
  "call-graph",
  "middleware",
  "endpoints",
  "models",
  "all",
] as const;
export type ArchitectureSection = (typeof ARCHITECTURE_SECTIONS)[number];

/** Output caps (seed 003), so one call cannot flood the context. */
export const ARCHITECTURE_LIMITS = {
  /** Characters of any answer (`all` included). */
  maxChars: 12_000,
  patterns: 5,
  hubs: 8,
  endpoints: 15,
  models: 10,
  cycles: 10,
  middleware: 20,
} as const;

const more = (total: number, shown: number, noun: string) =>
  total > shown ? [`- … and ${total - shown} more ${noun}`] : [];

function overview(analysis: ProjectAnalysis): string {
  const { overview: facts } = analysis;
  const languages = Object.entries(facts.languages)
    .map(([name, count]) => `${name} (${count})`)
    .join(", ");
  return [
    "## Overview",
    `- Project type: ${facts.projectType}`,
    `- Files: ${facts.fileCount} scanned, ${facts.sourceFileCount} source files analysed — ${languages}`,
    `- Frameworks: ${facts.frameworks.join(", ") || "none detected"}`,
    `- Entry points: ${facts.entryPoints.join(", ") || "none detected"}`,
  ].join("\n");
}

function patterns(analysis: ProjectAnalysis): string {
  const shown = analysis.patterns.slice(0, ARCHITECTURE_LIMITS.patterns);
  if (shown.length === 0) return "## Patterns\nNo architectural patterns detected.";
  return [
    "## Patterns",
    ...shown.map(
      (pattern) => `- ${pattern.name} — confidence ${pattern.confidence.toFixed(2)} (${pattern.evidence})`,
    ),
  ].join("\n");
}

function callGraph(analysis: ProjectAnalysis): string {
  const graph = analysis.callGraph;
  const hubs = graph.hubs.slice(0, ARCHITECTURE_LIMITS.hubs);
  const cycles = graph.cycles.slice(0, ARCHITECTURE_LIMITS.cycles);
  return [
    "## Call graph (imports)",
    `- Modules: ${graph.modules}; internal import edges: ${graph.internalEdges}; average internal imports per module: ${graph.averageImports}`,
    `- Most used external packages: ${graph.externalPackages.map((entry) => `${entry.name} (${entry.importedBy})`).join(", ") || "none"}`,
    "### Hub modules (imported by / imports)",
    ...(hubs.length > 0
      ? hubs.map((hub) => `- ${hub.file} — imported by ${hub.importedBy}, imports ${hub.imports}`)
      : ["- none"]),
    `### Circular dependencies (${graph.cycles.length})`,
    ...(cycles.length > 0
      ? cycles.map((cycle) => `- ${[...cycle, cycle[0]].join(" → ")}`)
      : ["- none found"]),
    ...more(graph.cycles.length, cycles.length, "cycles"),
  ].join("\n");
}

function middleware(analysis: ProjectAnalysis): string {
  const groups = [
    ["Auth strategies", "auth"],
    ["Middleware chain (registration order)", "middleware"],
    ["Error handlers", "error-handler"],
  ] as const;
  const lines = ["## Middleware"];
  for (const [title, kind] of groups) {
    const all = analysis.middleware.filter((fact) => fact.kind === kind);
    const shown = all.slice(0, ARCHITECTURE_LIMITS.middleware);
    lines.push(
      `### ${title}`,
      ...(shown.length > 0
        ? shown.map((fact) => `- ${fact.name} (${fact.file}:${fact.line})`)
        : ["- none found"]),
      ...more(all.length, shown.length, "entries"),
    );
  }
  return lines.join("\n");
}

function endpoints(analysis: ProjectAnalysis): string {
  const shown = analysis.endpoints.slice(0, ARCHITECTURE_LIMITS.endpoints);
  if (shown.length === 0) return "## Endpoints\nNo HTTP endpoints found.";
  return [
    `## Endpoints (${analysis.endpoints.length})`,
    ...shown.map((endpoint) => `- ${endpoint.method} ${endpoint.path} — ${endpoint.file}:${endpoint.line}`),
    ...more(analysis.endpoints.length, shown.length, "endpoints"),
  ].join("\n");
}

function models(analysis: ProjectAnalysis): string {
  const shown = analysis.models.slice(0, ARCHITECTURE_LIMITS.models);
  if (shown.length === 0) return "## Models\nNo data models found.";
  return [
    `## Models (${analysis.models.length})`,
    ...shown.map(
      (model) =>
        `- ${model.name} (${model.kind}, ${model.file}:${model.line}): ${model.properties.join(", ") || "no properties"}`,
    ),
    ...more(analysis.models.length, shown.length, "models"),
  ].join("\n");
}

const RENDERERS: Record<Exclude<ArchitectureSection, "all">, (analysis: ProjectAnalysis) => string> = {
  overview,
  patterns,
  "call-graph": callGraph,
  middleware,
  endpoints,
  models,
};

/** Markdown for one section (or all of them), capped at `ARCHITECTURE_LIMITS.maxChars`. */
export function renderArchitecture(analysis: ProjectAnalysis, section: ArchitectureSection): string {
  const body =
    section === "all"
      ? (Object.keys(RENDERERS) as (keyof typeof RENDERERS)[])
          .map((name) => RENDERERS[name](analysis))
          .join("\n\n")
      : RENDERERS[section](analysis);
  const text = `# Architecture knowledge (static analysis, ${analysis.generatedAt.slice(0, 10)})\n\n${body}`;
  if (text.length <= ARCHITECTURE_LIMITS.maxChars) return text;
  const note = "\n\n[truncated at 12,000 characters: ask for one section at a time]";
  return text.slice(0, ARCHITECTURE_LIMITS.maxChars - note.length) + note;
}
