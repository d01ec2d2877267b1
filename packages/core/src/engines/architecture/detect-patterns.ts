import { compareText } from "@nyzhi/config";
import type { DetectedPattern, FileFacts } from "./project-analysis.js";

interface PatternEvidence {
  paths: readonly string[];
  facts: readonly FileFacts[];
  sources: ReadonlyMap<string, string>;
  monorepo: boolean;
}

const round = (value: number) => Math.round(Math.min(0.95, value) * 100) / 100;

/** Directories (at any depth) whose name is one of `names`. */
function directoriesNamed(paths: readonly string[], names: RegExp): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/").slice(0, -1);
    parts.forEach((part, index) => {
      if (names.test(part)) found.add(parts.slice(0, index + 1).join("/"));
    });
  }
  return [...found].sort();
}

/**
 * Architectural patterns with a confidence from the evidence found (0–1, highest first): layered
 * folders, MVC, REST API, middleware pipeline, repository, dependency injection, ORM models,
 * event-driven code, monorepo workspaces, colocated tests.
 */
export function detectPatterns(evidence: PatternEvidence): DetectedPattern[] {
  const { paths, facts, sources } = evidence;
  const patterns: DetectedPattern[] = [];
  const add = (name: string, confidence: number, text: string) =>
    patterns.push({ name, confidence: round(confidence), evidence: text });
  const layers = {
    presentation: directoriesNamed(paths, /^(?:routes|controllers|handlers|api|endpoints|views|resolvers)$/),
    business: directoriesNamed(paths, /^(?:services|usecases|use-cases|domain|core|logic)$/),
    data: directoriesNamed(
      paths,
      /^(?:repositories|repository|models|entities|db|database|dal|schemas|persistence)$/,
    ),
  };
  const present = Object.entries(layers).filter(([, directories]) => directories.length > 0);
  if (present.length >= 2)
    add(
      "Layered architecture",
      0.35 + present.length * 0.2,
      present.map(([layer, directories]) => `${layer}: ${directories.slice(0, 3).join(", ")}`).join("; "),
    );
  const mvc = ["models", "views", "controllers"].map((name) =>
    directoriesNamed(paths, new RegExp(`^${name}$`)),
  );
  if (mvc.every((directories) => directories.length > 0))
    add("Model-View-Controller", 0.8, mvc.map((directories) => directories[0]).join(", "));
  const endpoints = facts.flatMap((file) => file.endpoints);
  if (endpoints.length > 0) {
    const files = new Set(endpoints.map((endpoint) => endpoint.file)).size;
    add("REST API", 0.5 + endpoints.length * 0.05, `${endpoints.length} route handlers in ${files} file(s)`);
  }
  const middleware = facts.flatMap((file) => file.middleware);
  if (middleware.length >= 2)
    add(
      "Middleware pipeline",
      0.4 + middleware.length * 0.08,
      `${middleware.length} middleware, auth or error-handler registrations`,
    );
  const repositories = paths.filter((path) => /repositor(?:y|ies)/i.test(path));
  if (repositories.length > 0)
    add("Repository pattern", 0.5 + repositories.length * 0.1, repositories.slice(0, 3).join(", "));
  const injection = [...sources]
    .filter(([, text]) => /@Injectable\(|Depends\(|@inject\(|container\.resolve\(/.test(text))
    .map(([path]) => path);
  if (injection.length > 0)
    add("Dependency injection", 0.45 + injection.length * 0.1, injection.slice(0, 3).join(", "));
  const orm = facts
    .flatMap((file) => file.models)
    .filter((model) => ["orm", "entity", "pydantic"].includes(model.kind));
  if (orm.length > 0)
    add(
      "Declarative data models (ORM / schema classes)",
      0.5 + orm.length * 0.08,
      orm
        .slice(0, 4)
        .map((model) => model.name)
        .join(", "),
    );
  const events = [...sources]
    .filter(([, text]) => /\bEventEmitter\b|\.emit\(|\bsubscribe\(|\bpublish\(/.test(text))
    .map(([path]) => path);
  if (events.length >= 2)
    add("Event-driven communication", 0.3 + events.length * 0.05, events.slice(0, 3).join(", "));
  if (evidence.monorepo)
    add("Monorepo (workspaces)", 0.9, "workspace manifest (pnpm-workspace.yaml or package.json workspaces)");
  const tests = paths.filter((path) =>
    /\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|\/)test_[^/]*\.py$|_test\.py$/.test(path),
  );
  if (tests.length > 0) {
    const colocated = tests.filter((path) => !/(?:^|\/)(?:tests?|__tests__)\//.test(path)).length;
    add(
      colocated * 2 >= tests.length ? "Colocated unit tests" : "Separate test tree",
      0.5 + Math.min(tests.length, 8) * 0.05,
      `${tests.length} test file(s)`,
    );
  }
  return patterns.sort(
    (left, right) => right.confidence - left.confidence || compareText(left.name, right.name),
  );
}
