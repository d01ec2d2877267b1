/** Languages the static analysis understands. */
export type SourceLanguage = "typescript" | "javascript" | "python";

/** An HTTP route found in the code. `path` includes mount prefixes the analysis could follow. */
export interface Endpoint {
  /** Upper case: `GET`, `POST`, … or `ALL`. */
  method: string;
  path: string;
  /** Project-relative, `/`-separated. */
  file: string;
  /** 1-based. */
  line: number;
}

/** A data shape: a class, interface or type literal (TS/JS), a model or dataclass (Python). */
export interface DataModel {
  name: string;
  /** `interface`, `type`, `class`, `entity`, `pydantic`, `dataclass`, `orm`, `typed-dict`. */
  kind: string;
  file: string;
  line: number;
  properties: string[];
}

/** A middleware registration, auth strategy or error handler. */
export interface MiddlewareFact {
  kind: "middleware" | "auth" | "error-handler";
  name: string;
  file: string;
  line: number;
}

/** A route-mount (`app.use("/api", usersRouter)`): prefix for the routes of the mounted module. */
export interface RouteMount {
  prefix: string;
  /** The identifier mounted; resolved through the file's imports. */
  identifier: string;
  file: string;
}

/** What one source file contributes. */
export interface FileFacts {
  file: string;
  language: SourceLanguage;
  /** Import specifiers as written (`./user`, `express`, `.models`, `app.db`). */
  imports: string[];
  /** Local name → import specifier, for resolving mounts. */
  importedNames: Record<string, string>;
  endpoints: Endpoint[];
  models: DataModel[];
  middleware: MiddlewareFact[];
  mounts: RouteMount[];
  /** Whether the file runs as a program (`if __name__ == "__main__"`, a shebang). */
  isMain: boolean;
}

/** A detected architectural pattern; `confidence` is 0–1. */
export interface DetectedPattern {
  name: string;
  confidence: number;
  evidence: string;
}

/** A module many others depend on (or that depends on many). */
export interface HubModule {
  file: string;
  /** Internal modules importing it. */
  importedBy: number;
  /** Internal modules it imports. */
  imports: number;
}

export interface CallGraphSummary {
  modules: number;
  /** Internal import edges (module → module, deduplicated). */
  internalEdges: number;
  /** Mean internal imports per module. */
  averageImports: number;
  /** Most-used external packages with how many modules import them. */
  externalPackages: { name: string; importedBy: number }[];
  /** Sorted by `importedBy`, then `imports`. */
  hubs: HubModule[];
  /** Each cycle as the files on it, in import order (the first file is not repeated). */
  cycles: string[][];
}

export interface ProjectOverview {
  projectType: string;
  /** Source files per language. */
  languages: Partial<Record<SourceLanguage, number>>;
  entryPoints: string[];
  frameworks: string[];
  /** Every file scanned (build output, dependencies and VCS folders excluded). */
  fileCount: number;
  sourceFileCount: number;
}

/** The whole analysis of one project, as cached in `.nyzhi/cache/architecture.json`. */
export interface ProjectAnalysis {
  version: 1;
  /** Hash of every scanned file's path, size and mtime: a change invalidates the cache. */
  fingerprint: string;
  /** ISO time. */
  generatedAt: string;
  overview: ProjectOverview;
  patterns: DetectedPattern[];
  callGraph: CallGraphSummary;
  middleware: MiddlewareFact[];
  endpoints: Endpoint[];
  models: DataModel[];
}
