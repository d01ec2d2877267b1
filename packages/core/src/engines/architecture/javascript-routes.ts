import type { SyntaxNode } from "@nyzhi/index";
import type { Endpoint, FileFacts } from "./project-analysis.js";
import { callArguments, isStringLiteral, lineOf, stringValue } from "./syntax-values.js";

const HTTP_METHODS: ReadonlySet<string> = new Set("get post put patch delete options head all".split(" "));
/** Receivers whose `.get("/x", …)` is a route definition (not `map.get`, `axios.get`, …). */
export const ROUTER_RECEIVER =
  /^(?:app|api|server|router|routes?|fastify|hono|koa|r|\w*(?:Router|router|App|Server|Routes))$/;
const NEXT_ROUTE_FILE = /(?:^|\/)app\/(.*?)\/?route\.[cm]?[jt]sx?$/;
const NEXT_PAGES_API = /(?:^|\/)pages\/(api\/.*)\.[cm]?[jt]sx?$/;
const NEXT_HANDLERS: ReadonlySet<string> = new Set("GET POST PUT PATCH DELETE OPTIONS HEAD".split(" "));
const NEST_METHODS: ReadonlySet<string> = new Set("Get Post Put Patch Delete Options Head All".split(" "));

type PushEndpoint = (endpoint: Omit<Endpoint, "file">) => void;

/**
 * The HTTP routes a TypeScript/JavaScript file defines: Express-style `router.get("/x", …)` calls
 * and `.route("/x").get(…).post(…)` chains, NestJS controller decorators, Next.js route files and
 * `pages/api` handlers. `of` gives the file's nodes of one type, in source order.
 */
export function collectJavaScriptRoutes(of: (type: string) => readonly SyntaxNode[], facts: FileFacts): void {
  const push = ({ method, path, line }: Omit<Endpoint, "file">) =>
    facts.endpoints.push({ method, path, file: facts.file, line });
  const routeChains: SyntaxNode[] = [];
  for (const call of of("call_expression")) {
    const member = memberCall(call);
    if (!member) continue;
    const [first] = callArguments(call);
    if (member.method.text === "route" && stringValue(first)) routeChains.push(call);
    if (!member.receiver || !HTTP_METHODS.has(member.method.text)) continue;
    const path = stringValue(first);
    if (path === undefined || !ROUTER_RECEIVER.test(member.receiver.text)) continue;
    if (path.startsWith("/") || path === "*")
      push({ method: member.method.text.toUpperCase(), path, line: lineOf(member.receiver) });
  }
  // `router.route("/books").get(list).post(create)`: each chained method is a route of that path.
  for (const route of routeChains) {
    const path = stringValue(callArguments(route)[0])!;
    const line = lineOf(memberCall(route)!.method);
    let current = route;
    for (;;) {
      const member = current.parent;
      const call = member?.parent;
      const method = member?.childForFieldName("property")?.text;
      if (member?.type !== "member_expression" || call?.type !== "call_expression" || !method) break;
      if (!HTTP_METHODS.has(method)) break;
      push({ method: method.toUpperCase(), path, line });
      current = call;
    }
  }
  collectNestRoutes(of("decorator"), push);
  collectNextRoutes(of("export_statement"), facts.file, push);
}

/** A decorator that calls a function: `@Get(":id")` → `Get`, [`":id"`] (a bare `@Injectable` is none). */
export function decoratorCall(decorator: SyntaxNode): { name: string; arguments: SyntaxNode[] } | undefined {
  const expression = decorator.namedChildren.find((child) => child.type !== "comment");
  if (expression?.type !== "call_expression") return undefined;
  const callee = expression.childForFieldName("function");
  return callee?.type === "identifier"
    ? { name: callee.text, arguments: callArguments(expression) }
    : undefined;
}

/**
 * NestJS: in a file with a `@Controller("users")`, each `@Get(":id")`-style decorator is a route
 * under the prefix of the last controller before it.
 */
function collectNestRoutes(decorators: readonly SyntaxNode[], push: PushEndpoint): void {
  const calls = decorators.map((decorator) => ({ decorator, call: decoratorCall(decorator) }));
  if (!calls.some(({ call }) => call?.name === "Controller")) return;
  let prefix = "";
  for (const { decorator, call } of calls) {
    if (call?.name === "Controller") prefix = stringValue(call.arguments[0]) ?? "";
    if (!call || !NEST_METHODS.has(call.name)) continue;
    const [argument, ...rest] = call.arguments;
    if (rest.length > 0 || (argument && !isStringLiteral(argument))) continue;
    const path = `/${[prefix, stringValue(argument) ?? ""]
      .map((part) => part.replace(/^\/+|\/+$/g, ""))
      .filter(Boolean)
      .join("/")}`;
    push({ method: call.name.toUpperCase(), path, line: lineOf(decorator) });
  }
}

/** Next.js: `app/**​/route.ts` exports `GET`, `POST`…; `pages/api/**` exports a default handler. */
function collectNextRoutes(exports: readonly SyntaxNode[], file: string, push: PushEndpoint): void {
  const nextRoute = NEXT_ROUTE_FILE.exec(file);
  if (nextRoute) {
    const path = `/${nextRoute[1]!}`
      .split("/")
      .filter((segment) => !/^\(.*\)$/.test(segment))
      .map((segment) => segment.replace(/^\[\.{3}(.+)\]$/, "*$1").replace(/^\[(.+)\]$/, ":$1"))
      .join("/");
    for (const statement of exports)
      for (const name of exportedHandlerNames(statement))
        if (NEXT_HANDLERS.has(name)) push({ method: name, path: path || "/", line: lineOf(statement) });
  }
  const pagesApi = NEXT_PAGES_API.exec(file);
  const exportDefault = exports.find((statement) =>
    statement.children.some((child) => child.type === "default"),
  );
  if (pagesApi && exportDefault) {
    const path = `/${pagesApi[1]!.replace(/\/index$/, "").replace(/\[(.+?)\]/g, ":$1")}`;
    push({ method: "ALL", path, line: lineOf(exportDefault) });
  }
}

/** `export function GET` / `export const GET = …` → `GET`. */
function exportedHandlerNames(statement: SyntaxNode): string[] {
  const declaration = statement.childForFieldName("declaration");
  if (declaration?.type === "function_declaration")
    return [declaration.childForFieldName("name")?.text ?? ""];
  if (declaration?.type !== "lexical_declaration" || declaration.children[0]?.type !== "const") return [];
  return declaration.namedChildren
    .filter((child) => child.type === "variable_declarator")
    .map((declarator) => declarator.childForFieldName("name")?.text ?? "");
}

/** `receiver.method(…)`: the receiver's last name (`app` in `this.app.get`) and the method. */
export function memberCall(
  call: SyntaxNode,
): { receiver: SyntaxNode | undefined; method: SyntaxNode } | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "member_expression") return undefined;
  const method = callee.childForFieldName("property");
  const object = callee.childForFieldName("object");
  if (!method || !object) return undefined;
  const receiver =
    object.type === "member_expression"
      ? (object.childForFieldName("property") ?? undefined)
      : object.type === "identifier"
        ? object
        : undefined;
  return { receiver, method };
}
