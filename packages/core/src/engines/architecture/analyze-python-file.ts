import type { SyntaxNode } from "@nyzhi/index";
import type { Endpoint, FileFacts, MiddlewareFact } from "./project-analysis.js";
import { callArguments, groupByType, lineOf, stringValue } from "./syntax-values.js";

/** Base-class names that make a class a data model, by kind (tested on the bases as written). */
const MODEL_BASES: readonly [RegExp, string][] = [
  [/\b(?:BaseModel|SQLModel|BaseSettings)\b/, "pydantic"],
  [/\bTypedDict\b/, "typed-dict"],
  [/\b(?:models\.Model|db\.Model|Model|Base|DeclarativeBase|Document|Schema)\b/, "orm"],
];
/** Calls that declare a model field when assigned in a class body (`id = Column(…)`, `models.CharField(…)`). */
const FIELD_CALL = /(?:Column|Field|field|mapped_column|relationship)$|\b(?:models|fields)\.\w+$/;
const AUTH_NAME = /auth|login|jwt|token|oauth|permission|current_user/i;
const ROUTE_SHORTCUTS: ReadonlySet<string> = new Set([
  "get",
  "post",
  "put",
  "patch",
  "delete",
  "options",
  "head",
]);
const HOOKS: ReadonlySet<string> = new Set([
  "middleware",
  "before_request",
  "after_request",
  "errorhandler",
  "exception_handler",
]);
const AUTH_DECORATORS: ReadonlySet<string> = new Set([
  "login_required",
  "permission_required",
  "jwt_required",
]);

const NODE_TYPES = [
  "import_statement",
  "import_from_statement",
  "future_import_statement",
  "decorator",
  "call",
  "class_definition",
];

/**
 * Static facts of one Python file from its syntax tree (`parseSource` of `@nyzhi/index`):
 * imports, routes, data models, middleware. Comments and docstrings are nodes of their own, so
 * code inside them never counts.
 */
export function analyzePythonFile(file: string, root: SyntaxNode): FileFacts {
  const facts: FileFacts = {
    file,
    language: "python",
    imports: [],
    importedNames: {},
    endpoints: [],
    models: [],
    middleware: [],
    mounts: [],
    isMain: root.namedChildren.some(isMainGuard),
  };
  const nodes = groupByType(root.descendantsOfType(NODE_TYPES));
  const of = (type: string): readonly SyntaxNode[] => nodes.get(type) ?? [];
  collectImports(of, facts);
  collectRoutes(of, root, facts);
  collectModels(of("class_definition"), facts);
  collectMiddleware(of, root, facts);
  return facts;
}

type NodesOfType = (type: string) => readonly SyntaxNode[];

/** `if __name__ == "__main__":` at the top level. */
function isMainGuard(statement: SyntaxNode): boolean {
  const condition = statement.type === "if_statement" ? statement.childForFieldName("condition") : null;
  if (condition?.type !== "comparison_operator" || !condition.children.some((child) => child.type === "=="))
    return false;
  const operands = condition.namedChildren;
  return (
    operands.length === 2 &&
    operands.some((operand) => operand.type === "identifier" && operand.text === "__name__") &&
    operands.some((operand) => stringValue(operand) === "__main__")
  );
}

/** A dotted name as written (`os.path`), or an alias's name (`numpy` in `numpy as np`). */
function importedName(node: SyntaxNode): string {
  const name = node.type === "aliased_import" ? node.childForFieldName("name") : node;
  return (name ?? node).text.replace(/\s+/g, "");
}

function collectImports(of: NodesOfType, facts: FileFacts): void {
  const add = (module: string) => {
    if (!facts.imports.includes(module)) facts.imports.push(module);
  };
  const statements = [
    ...of("import_statement"),
    ...of("import_from_statement"),
    ...of("future_import_statement"),
  ];
  for (const statement of statements.sort((left, right) => left.startIndex - right.startIndex)) {
    const names = statement.childrenForFieldName("name").map(importedName);
    if (statement.type === "import_statement") {
      for (const name of names) add(name);
      continue;
    }
    const module =
      statement.type === "future_import_statement"
        ? "__future__"
        : (statement.childForFieldName("module_name")?.text.replace(/\s+/g, "") ?? "");
    // `from pkg import sub` may name a submodule; the resolver tries `pkg.sub` before `pkg`.
    const simple = names.filter((name) => /^\w+$/.test(name));
    if (simple.length === 0) add(module);
    for (const name of simple)
      add(`${module.endsWith(".") ? `${module}${name}` : `${module}.${name}`}|${module}`);
  }
}

/** A call's function as written (`app.get`, `Depends`) and its last name (`get`, `Depends`). */
function callee(call: SyntaxNode): { text: string; name: string; object: SyntaxNode | null } | undefined {
  const target = call.childForFieldName("function");
  if (target?.type === "identifier") return { text: target.text, name: target.text, object: null };
  if (target?.type !== "attribute") return undefined;
  const name = target.childForFieldName("attribute")?.text ?? "";
  return { text: target.text, name, object: target.childForFieldName("object") };
}

/** A keyword argument's value: `url_prefix="/x"` → the string node. */
function keywordArgument(call: SyntaxNode, names: ReadonlySet<string>): SyntaxNode | undefined {
  const keyword = callArguments(call).find(
    (argument) =>
      argument.type === "keyword_argument" && names.has(argument.childForFieldName("name")?.text ?? ""),
  );
  return keyword?.childForFieldName("value") ?? undefined;
}

/** What a decorator applies: its expression, or the call it makes (`@bp.get("/")`). */
const decoratorExpression = (decorator: SyntaxNode) =>
  decorator.namedChildren.find((child) => child.type !== "comment");

function collectRoutes(of: NodesOfType, root: SyntaxNode, facts: FileFacts): void {
  const prefixes = new Map<string, string>();
  for (const statement of root.namedChildren) {
    const assignment = statement.type === "expression_statement" ? statement.namedChildren[0] : undefined;
    const target = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
    const value = assignment?.childForFieldName("right");
    if (target?.type !== "identifier" || value?.type !== "call") continue;
    if (!["APIRouter", "Blueprint"].includes(callee(value)?.name ?? "")) continue;
    const prefix = stringValue(keywordArgument(value, new Set(["prefix", "url_prefix"])));
    if (prefix) prefixes.set(target.text, prefix);
  }
  const join = (owner: string, path: string) => {
    const prefix = prefixes.get(owner) ?? "";
    return prefix ? `${prefix.replace(/\/$/, "")}/${path.replace(/^\//, "")}` : path;
  };
  const shortcuts: Omit<Endpoint, "file">[] = [];
  const routes: Omit<Endpoint, "file">[] = [];
  for (const decorator of of("decorator")) {
    const call = decoratorExpression(decorator);
    const target = call?.type === "call" ? callee(call) : undefined;
    if (!call || target?.object?.type !== "identifier") continue;
    const path = stringValue(callArguments(call)[0]);
    if (path === undefined) continue;
    const line = lineOf(decorator);
    const owner = target.object.text;
    if (ROUTE_SHORTCUTS.has(target.name))
      shortcuts.push({ method: target.name.toUpperCase(), path: join(owner, path), line });
    else if (target.name === "route" || target.name === "api_route") {
      const methods = keywordArgument(call, new Set(["methods"]));
      const listed = ["list", "tuple"].includes(methods?.type ?? "")
        ? methods!.namedChildren
            .map(stringValue)
            .filter((method) => method !== undefined && /^\w+$/.test(method))
        : ["GET"];
      for (const method of listed)
        routes.push({ method: method!.toUpperCase(), path: join(owner, path), line });
    }
  }
  const urls: Omit<Endpoint, "file">[] = [];
  if (/(?:^|\/)urls\.py$/.test(facts.file))
    for (const call of of("call")) {
      if (!["path", "re_path"].includes(callee(call)?.name ?? "")) continue;
      const [pattern, view] = callArguments(call);
      const path = stringValue(pattern);
      // `path("api/", include("api.urls"))` delegates; the included file lists the routes.
      if (path === undefined || !view || !/^[\w.]/.test(view.text) || view.text.startsWith("include"))
        continue;
      urls.push({ method: "ALL", path: `/${path}`, line: lineOf(call) });
    }
  for (const { method, path, line } of [...shortcuts, ...routes, ...urls])
    facts.endpoints.push({ method, path, file: facts.file, line });
}

function collectModels(classes: readonly SyntaxNode[], facts: FileFacts): void {
  for (const definition of classes) {
    const name = definition.childForFieldName("name")?.text;
    if (!name) continue;
    const bases = definition.childForFieldName("superclasses")?.text.slice(1, -1) ?? "";
    const kind = isDataclass(definition)
      ? "dataclass"
      : MODEL_BASES.find(([pattern]) => pattern.test(bases))?.[1];
    if (!kind) continue;
    facts.models.push({
      name,
      kind,
      file: facts.file,
      line: lineOf(definition),
      properties: fieldNames(definition.childForFieldName("body")),
    });
  }
}

/** `@dataclass`, `@dataclasses.dataclass`, `@dataclass(frozen=True)` on the class. */
function isDataclass(definition: SyntaxNode): boolean {
  if (definition.parent?.type !== "decorated_definition") return false;
  return definition.parent.namedChildren.some((decorator) => {
    if (decorator.type !== "decorator") return false;
    let expression = decoratorExpression(decorator);
    if (expression?.type === "call") expression = expression.childForFieldName("function") ?? undefined;
    return expression?.text === "dataclass" || expression?.text === "dataclasses.dataclass";
  });
}

/** Names annotated (`id: int`) or assigned a field (`id = Column(…)`) directly in a class body. */
function fieldNames(body: SyntaxNode | null): string[] {
  const names: string[] = [];
  for (const statement of body?.namedChildren ?? []) {
    const assignment = statement.type === "expression_statement" ? statement.namedChildren[0] : undefined;
    if (assignment?.type !== "assignment") continue;
    const target = assignment.childForFieldName("left");
    const value = assignment.childForFieldName("right");
    const isField =
      assignment.childForFieldName("type") !== null ||
      (value?.type === "call" && FIELD_CALL.test(callee(value)?.text ?? ""));
    if (target?.type === "identifier" && isField && !names.includes(target.text)) names.push(target.text);
  }
  return names;
}

function collectMiddleware(of: NodesOfType, root: SyntaxNode, facts: FileFacts): void {
  const found: Omit<MiddlewareFact, "file">[][] = [[], [], [], [], []];
  const [registered, hooks, dependencies, decorated, django] = found as [
    Omit<MiddlewareFact, "file">[],
    Omit<MiddlewareFact, "file">[],
    Omit<MiddlewareFact, "file">[],
    Omit<MiddlewareFact, "file">[],
    Omit<MiddlewareFact, "file">[],
  ];
  const isName = (node: SyntaxNode | undefined): node is SyntaxNode =>
    node?.type === "identifier" || node?.type === "attribute";
  for (const call of of("call")) {
    const target = callee(call);
    const [first, ...rest] = callArguments(call);
    if (target?.name === "add_middleware" && target.object && isName(first))
      registered.push({
        kind: AUTH_NAME.test(first.text) ? "auth" : "middleware",
        name: first.text,
        line: lineOf(call),
      });
    if (target?.name === "Depends" && isName(first) && rest.length === 0 && AUTH_NAME.test(first.text))
      dependencies.push({ kind: "auth", name: `Depends(${first.text})`, line: lineOf(call) });
  }
  for (const decorator of of("decorator")) {
    let expression = decoratorExpression(decorator);
    if (expression?.type === "call") expression = expression.childForFieldName("function") ?? undefined;
    if (expression?.type === "identifier" && AUTH_DECORATORS.has(expression.text))
      decorated.push({ kind: "auth", name: `@${expression.text}`, line: lineOf(decorator) });
    const hook =
      expression?.type === "attribute" ? expression.childForFieldName("attribute")?.text : undefined;
    if (!hook || !HOOKS.has(hook) || expression?.childForFieldName("object")?.type !== "identifier") continue;
    const definition = decorator.parent?.childForFieldName("definition");
    const name =
      definition?.type === "function_definition" ? definition.childForFieldName("name")?.text : undefined;
    if (!name) continue;
    const kind =
      hook === "errorhandler" || hook === "exception_handler"
        ? "error-handler"
        : AUTH_NAME.test(name)
          ? "auth"
          : "middleware";
    hooks.push({ kind, name, line: lineOf(decorator) });
  }
  // Django settings: `MIDDLEWARE = ["django.middleware.security.SecurityMiddleware", …]`.
  for (const statement of root.namedChildren) {
    const assignment = statement.type === "expression_statement" ? statement.namedChildren[0] : undefined;
    const target = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
    const value = assignment?.childForFieldName("right");
    if (target?.text !== "MIDDLEWARE" || value?.type !== "list") continue;
    for (const entry of value.namedChildren.map(stringValue))
      if (entry && /^[\w.]+$/.test(entry))
        django.push({
          kind: AUTH_NAME.test(entry) ? "auth" : "middleware",
          name: entry,
          line: lineOf(assignment!),
        });
    break;
  }
  for (const fact of found.flat()) facts.middleware.push({ ...fact, file: facts.file });
}
