import { blankComments, braceBody, lineLocator } from "./blank-comments.js";
import type { DataModel, FileFacts, MiddlewareFact, SourceLanguage } from "./project-analysis.js";

const HTTP_METHODS = "get|post|put|patch|delete|options|head|all";
/** Receivers whose `.get("/x", …)` is a route definition (not `map.get`, `axios.get`, …). */
const ROUTER_RECEIVER =
  /^(?:app|api|server|router|routes?|fastify|hono|koa|r|\w*(?:Router|router|App|Server|Routes))$/;
const AUTH_NAME = /auth|passport|jwt|session|token|guard|login|oauth/i;
const NEXT_ROUTE_FILE = /(?:^|\/)app\/(.*?)\/?route\.[cm]?[jt]sx?$/;
const NEXT_PAGES_API = /(?:^|\/)pages\/(api\/.*)\.[cm]?[jt]sx?$/;

/** Static facts of one TypeScript/JavaScript file: imports, routes, data shapes, middleware. */
export function analyzeJavaScriptFile(file: string, text: string, language: SourceLanguage): FileFacts {
  const code = blankComments(text, "js");
  const lineOf = lineLocator(code);
  const facts: FileFacts = {
    file,
    language,
    imports: [],
    importedNames: {},
    endpoints: [],
    models: [],
    middleware: [],
    mounts: [],
    isMain: text.startsWith("#!"),
  };
  collectImports(code, facts);
  collectRoutes(code, facts, lineOf);
  collectModels(code, facts, lineOf);
  collectMiddleware(code, facts, lineOf);
  return facts;
}

function collectImports(code: string, facts: FileFacts): void {
  const add = (specifier: string) => {
    if (!facts.imports.includes(specifier)) facts.imports.push(specifier);
  };
  const fromClause = /\bimport\s+(?:type\s+)?([\w$*{}\s,]+?)\s+from\s*["']([^"']+)["']/g;
  for (const match of code.matchAll(fromClause)) {
    add(match[2]!);
    for (const name of importedBindings(match[1]!)) facts.importedNames[name] = match[2]!;
  }
  for (const match of code.matchAll(/\bimport\s*["']([^"']+)["']/g)) add(match[1]!);
  for (const match of code.matchAll(
    /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']([^"']+)["']/g,
  ))
    add(match[1]!);
  for (const match of code.matchAll(/(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*["']([^"']+)["']\s*\)/g))
    facts.importedNames[match[1]!] = match[2]!;
  for (const match of code.matchAll(/\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)) add(match[1]!);
}

/** `Foo, { a, b as c }` / `* as ns` → local names. */
function importedBindings(clause: string): string[] {
  return clause
    .replace(/[{}]/g, ",")
    .split(",")
    .map((part) =>
      part
        .trim()
        .split(/\s+as\s+/)
        .pop()!
        .replace(/^\*\s*/, "")
        .trim(),
    )
    .filter((name) => /^[\w$]+$/.test(name) && name !== "type");
}

function collectRoutes(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const call = new RegExp(`\\b([\\w$]+)\\s*\\.\\s*(${HTTP_METHODS})\\(\\s*(["'\`])([^"'\`]*)\\3`, "g");
  for (const match of code.matchAll(call)) {
    const path = match[4]!;
    if (!ROUTER_RECEIVER.test(match[1]!) || !(path.startsWith("/") || path === "*")) continue;
    facts.endpoints.push({
      method: match[2]!.toUpperCase(),
      path,
      file: facts.file,
      line: lineOf(match.index),
    });
  }
  const routeChain = new RegExp(
    `\\.route\\(\\s*["'\`]([^"'\`]+)["'\`]\\s*\\)((?:\\s*\\.\\s*(?:${HTTP_METHODS})\\([^)]*\\))+)`,
    "g",
  );
  for (const match of code.matchAll(routeChain)) {
    for (const method of match[2]!.matchAll(new RegExp(`\\.\\s*(${HTTP_METHODS})\\(`, "g")))
      facts.endpoints.push({
        method: method[1]!.toUpperCase(),
        path: match[1]!,
        file: facts.file,
        line: lineOf(match.index),
      });
  }
  collectNestRoutes(code, facts, lineOf);
  const nextRoute = NEXT_ROUTE_FILE.exec(facts.file);
  if (nextRoute) {
    const path = `/${nextRoute[1]!}`
      .split("/")
      .filter((segment) => !/^\(.*\)$/.test(segment))
      .map((segment) => segment.replace(/^\[\.{3}(.+)\]$/, "*$1").replace(/^\[(.+)\]$/, ":$1"))
      .join("/");
    const exported =
      /\bexport\s+(?:async\s+)?(?:function\s+|const\s+)(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD)\b/g;
    for (const match of code.matchAll(exported))
      facts.endpoints.push({
        method: match[1]!,
        path: path || "/",
        file: facts.file,
        line: lineOf(match.index),
      });
  }
  const pagesApi = NEXT_PAGES_API.exec(facts.file);
  if (pagesApi && /\bexport\s+default\b/.test(code)) {
    const path = `/${pagesApi[1]!.replace(/\/index$/, "").replace(/\[(.+?)\]/g, ":$1")}`;
    facts.endpoints.push({
      method: "ALL",
      path,
      file: facts.file,
      line: lineOf(code.search(/\bexport\s+default\b/)),
    });
  }
}

/** NestJS: `@Controller("users")` prefixes the `@Get(":id")`-style decorators in its class. */
function collectNestRoutes(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const controllers = [...code.matchAll(/@Controller\(\s*(?:["'`]([^"'`]*)["'`])?[^)]*\)/g)];
  if (controllers.length === 0) return;
  const decorator = /@(Get|Post|Put|Patch|Delete|Options|Head|All)\(\s*(?:["'`]([^"'`]*)["'`])?\s*\)/g;
  for (const match of code.matchAll(decorator)) {
    const owner = controllers.filter((controller) => controller.index < match.index).at(-1);
    const prefix = owner?.[1] ?? "";
    const path = `/${[prefix, match[2] ?? ""]
      .map((part) => part.replace(/^\/+|\/+$/g, ""))
      .filter(Boolean)
      .join("/")}`;
    facts.endpoints.push({
      method: match[1]!.toUpperCase(),
      path,
      file: facts.file,
      line: lineOf(match.index),
    });
  }
}

function collectModels(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const declaration =
    /\b(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(class|interface)\s+([A-Z][\w$]*)[^{;]*\{|\b(?:export\s+)?type\s+([A-Z][\w$]*)(?:<[^=]*>)?\s*=\s*\{/g;
  for (const match of code.matchAll(declaration)) {
    const open = match.index + match[0].length - 1;
    const body = braceBody(code, open);
    const kind = match[1] ?? "type";
    const properties = kind === "class" ? classProperties(body) : typeProperties(body);
    if (properties.length === 0) continue;
    const decorated = /@Entity\(|@Schema\(|@Table\(/.test(
      code.slice(Math.max(0, match.index - 200), match.index),
    );
    const model: DataModel = {
      name: match[2] ?? match[3]!,
      kind: decorated ? "entity" : kind,
      file: facts.file,
      line: lineOf(match.index),
      properties,
    };
    facts.models.push(model);
  }
}

/** Top-level `name: T` / `name?: T` members of an interface or type literal body. */
function typeProperties(body: string): string[] {
  return uniqueMatches(topLevel(body), /(?:^|[;,\n])\s*(?:readonly\s+)?["']?([\w$]+)["']?\??\s*:/g);
}

/** Field declarations of a class body (not methods, not the constructor). */
function classProperties(body: string): string[] {
  const modifiers = "(?:(?:public|private|protected|readonly|static|declare|override|accessor)\\s+)*";
  const field = new RegExp(
    `(?:^|[;\\n}])\\s*(?:@[\\w$]+(?:\\([^)]*\\))?\\s*)*${modifiers}#?([\\w$]+)[!?]?\\s*(?::|=(?!>))`,
    "g",
  );
  return uniqueMatches(topLevel(body), field).filter((name) => name !== "constructor");
}

/** `body` with the insides of nested `{…}` and `(…)` groups removed, so only depth-1 members remain. */
function topLevel(body: string): string {
  let depth = 0;
  let out = "";
  for (const char of body) {
    if (char === "{" || char === "(") depth += 1;
    if (depth === 0) out += char;
    if ((char === "}" || char === ")") && depth > 0) {
      depth -= 1;
      if (depth === 0) out += char === "}" ? "}" : "()";
    }
  }
  return out;
}

function uniqueMatches(text: string, pattern: RegExp): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(pattern)) if (!names.includes(match[1]!)) names.push(match[1]!);
  return names;
}

function collectMiddleware(code: string, facts: FileFacts, lineOf: (offset: number) => number): void {
  const push = (fact: Omit<MiddlewareFact, "file">) => facts.middleware.push({ ...fact, file: facts.file });
  for (const match of code.matchAll(/\b([\w$]+)\s*\.\s*use\(\s*/g)) {
    if (!ROUTER_RECEIVER.test(match[1]!)) continue;
    const args = argumentList(code, match.index + match[0].length);
    const [first, second] = args;
    const line = lineOf(match.index);
    if (first !== undefined && /^["'`]\//.test(first) && second !== undefined) {
      const mounted = second.match(/^[\w$]+$/)?.[0];
      if (mounted) facts.mounts.push({ prefix: first.slice(1, -1), identifier: mounted, file: facts.file });
      if (mounted && !AUTH_NAME.test(second)) continue;
    }
    for (const arg of args.filter((candidate) => !/^["'`]/.test(candidate))) {
      const name = arg.replace(/\s+/g, " ").slice(0, 60);
      const kind = /^(?:async\s*)?(?:function\s*[\w$]*\s*)?\(\s*(?:err|error)\b[^)]*,[^)]*,[^)]*,/.test(arg)
        ? "error-handler"
        : AUTH_NAME.test(arg)
          ? "auth"
          : "middleware";
      push({ kind, name: kind === "error-handler" ? "(err, req, res, next) handler" : name, line });
    }
  }
  for (const match of code.matchAll(/\bfunction\s+([\w$]+)\s*\(\s*(?:err|error)\b[^)]*,[^)]*,[^)]*,[^)]*\)/g))
    push({ kind: "error-handler", name: match[1]!, line: lineOf(match.index) });
  for (const match of code.matchAll(/@UseGuards\(([^)]*)\)/g))
    push({ kind: "auth", name: `@UseGuards(${match[1]!.trim()})`, line: lineOf(match.index) });
}

/** The top-level comma-separated arguments of a call whose `(` ends just before `start`. */
function argumentList(code: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = "";
  for (let index = start; index < code.length && index < start + 2000; index++) {
    const char = code[index]!;
    if ("([{".includes(char)) depth += 1;
    if (")]}".includes(char)) {
      if (depth === 0) break;
      depth -= 1;
    }
    if (char === "," && depth === 0) {
      args.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim()) args.push(current.trim());
  return args;
}
