import { blankComments, lineLocator } from "./blank-comments.js";
import type { FileFacts, MiddlewareFact } from "./project-analysis.js";

const MODEL_BASES: readonly [RegExp, string][] = [
  [/\b(?:BaseModel|SQLModel|BaseSettings)\b/, "pydantic"],
  [/\bTypedDict\b/, "typed-dict"],
  [/\b(?:models\.Model|db\.Model|Model|Base|DeclarativeBase|Document|Schema)\b/, "orm"],
];
const AUTH_NAME = /auth|login|jwt|token|oauth|permission|current_user/i;

/** Static facts of one Python file: imports, routes, data models, middleware. */
export function analyzePythonFile(file: string, text: string): FileFacts {
  const code = blankComments(text, "python");
  const lineOf = lineLocator(code);
  const facts: FileFacts = {
    file,
    language: "python",
    imports: [],
    importedNames: {},
    endpoints: [],
    models: [],
    middleware: [],
    mounts: [],
    isMain: /^if\s+__name__\s*==\s*["']__main__["']\s*:/m.test(code),
  };
  collectImports(code, facts);
  collectRoutes(code, facts, lineOf);
  collectModels(code, facts, lineOf);
  collectMiddleware(code, facts, lineOf);
  return facts;
}

function collectImports(code: string, facts: FileFacts): void {
  const add = (module: string) => {
    if (!facts.imports.includes(module)) facts.imports.push(module);
  };
  for (const match of code.matchAll(/^[ \t]*import[ \t]+([\w. \t,]+)$/gm))
    for (const part of match[1]!.split(","))
      add(
        part
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim(),
      );
  const fromImport = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)/gm;
  for (const match of code.matchAll(fromImport)) {
    const module = match[1]!;
    const names = match[2]!
      .replace(/[()]/g, "")
      .split(",")
      .map((name) =>
        name
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter((name) => /^\w+$/.test(name));
    // `from pkg import sub` may name a submodule; the resolver tries `pkg.sub` before `pkg`.
    if (names.length === 0) add(module);
    for (const name of names) {
      const joined = module.endsWith(".") ? `${module}${name}` : `${module}.${name}`;
      add(`${joined}|${module}`);
    }
  }
}

function collectRoutes(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const prefixes = new Map<string, string>();
  for (const match of code.matchAll(/^(\w+)\s*=\s*(?:APIRouter|Blueprint)\(([^)]*)\)/gm)) {
    const prefix = /(?:url_)?prefix\s*=\s*["']([^"']*)["']/.exec(match[2]!)?.[1];
    if (prefix) prefixes.set(match[1]!, prefix);
  }
  const join = (owner: string, path: string) => {
    const prefix = prefixes.get(owner) ?? "";
    return prefix ? `${prefix.replace(/\/$/, "")}/${path.replace(/^\//, "")}` : path;
  };
  const shortcut = /^[ \t]*@(\w+)\.(get|post|put|patch|delete|options|head)\(\s*["']([^"']*)["']/gm;
  for (const match of code.matchAll(shortcut))
    facts.endpoints.push({
      method: match[2]!.toUpperCase(),
      path: join(match[1]!, match[3]!),
      file: facts.file,
      line: lineOf(match.index),
    });
  const route = /^[ \t]*@(\w+)\.(?:route|api_route)\(\s*["']([^"']*)["']([^)]*)\)/gm;
  for (const match of code.matchAll(route)) {
    const methods = /methods\s*=\s*[[(]([^\])]*)[\])]/.exec(match[3]!)?.[1];
    const list = methods
      ? [...methods.matchAll(/["'](\w+)["']/g)].map((method) => method[1]!.toUpperCase())
      : ["GET"];
    for (const method of list)
      facts.endpoints.push({
        method,
        path: join(match[1]!, match[2]!),
        file: facts.file,
        line: lineOf(match.index),
      });
  }
  if (/(?:^|\/)urls\.py$/.test(facts.file)) {
    for (const match of code.matchAll(/\b(?:re_)?path\(\s*r?["']([^"']*)["']\s*,\s*([\w.]+)/g)) {
      if (match[2]!.startsWith("include")) continue;
      facts.endpoints.push({
        method: "ALL",
        path: `/${match[1]!}`,
        file: facts.file,
        line: lineOf(match.index),
      });
    }
  }
}

function collectModels(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const lines = code.split("\n");
  for (const match of code.matchAll(/^([ \t]*)class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:/gm)) {
    const indent = match[1]!.length;
    const bases = match[3] ?? "";
    const before = code.slice(Math.max(0, match.index - 120), match.index);
    const kind = /@(?:dataclasses\.)?dataclass\b[^\n]*\n\s*$/.test(before)
      ? "dataclass"
      : MODEL_BASES.find(([pattern]) => pattern.test(bases))?.[1];
    if (!kind) continue;
    const start = lineOf(match.index);
    const bodyIndent = firstBodyIndent(lines, start, indent);
    const properties: string[] = [];
    for (let index = start; index < lines.length; index++) {
      const line = lines[index]!;
      if (line.trim() === "") continue;
      const lineIndent = line.length - line.trimStart().length;
      if (lineIndent <= indent) break;
      if (lineIndent !== bodyIndent) continue;
      const field =
        /^[ \t]*(\w+)[ \t]*(?::|=[ \t]*[\w.]*(?:Column|Field|field|mapped_column|relationship|models\.\w+|fields\.\w+)\()/.exec(
          line,
        );
      if (field && !properties.includes(field[1]!)) properties.push(field[1]!);
    }
    facts.models.push({ name: match[2]!, kind, file: facts.file, line: start, properties });
  }
}

/** Indentation of the first non-blank line of a class body starting after line `start`. */
function firstBodyIndent(lines: readonly string[], start: number, indent: number): number {
  for (let index = start; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    const lineIndent = line.length - line.trimStart().length;
    return lineIndent > indent ? lineIndent : indent + 4;
  }
  return indent + 4;
}

function collectMiddleware(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const push = (fact: Omit<MiddlewareFact, "file">) => facts.middleware.push({ ...fact, file: facts.file });
  for (const match of code.matchAll(/\b\w+\.add_middleware\(\s*([\w.]+)/g))
    push({
      kind: AUTH_NAME.test(match[1]!) ? "auth" : "middleware",
      name: match[1]!,
      line: lineOf(match.index),
    });
  const hooks =
    /^[ \t]*@\w+\.(middleware|before_request|after_request|errorhandler|exception_handler)\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)/gm;
  for (const match of code.matchAll(hooks)) {
    const kind = /errorhandler|exception_handler/.test(match[1]!)
      ? "error-handler"
      : AUTH_NAME.test(match[2]!)
        ? "auth"
        : "middleware";
    push({ kind, name: match[2]!, line: lineOf(match.index) });
  }
  for (const match of code.matchAll(/Depends\(\s*([\w.]+)\s*\)/g))
    if (AUTH_NAME.test(match[1]!))
      push({ kind: "auth", name: `Depends(${match[1]!})`, line: lineOf(match.index) });
  for (const match of code.matchAll(/^[ \t]*@(login_required|permission_required|jwt_required)\b/gm))
    push({ kind: "auth", name: `@${match[1]!}`, line: lineOf(match.index) });
  const django = /^MIDDLEWARE\s*=\s*\[([^\]]*)\]/m.exec(code);
  if (django)
    for (const entry of django[1]!.matchAll(/["']([\w.]+)["']/g))
      push({
        kind: AUTH_NAME.test(entry[1]!) ? "auth" : "middleware",
        name: entry[1]!,
        line: lineOf(django.index),
      });
}
