import type { SyntaxNode } from "@nyzhi/index";
import { collectJavaScriptRoutes, decoratorCall, memberCall, ROUTER_RECEIVER } from "./javascript-routes.js";
import type { DataModel, FileFacts, MiddlewareFact, SourceLanguage } from "./project-analysis.js";
import { callArguments, groupByType, isStringLiteral, lineOf, stringValue } from "./syntax-values.js";

const AUTH_NAME = /auth|passport|jwt|session|token|guard|login|oauth/i;
const ENTITY_DECORATORS: ReadonlySet<string> = new Set(["Entity", "Schema", "Table"]);
const ERROR_PARAMETER: ReadonlySet<string> = new Set(["err", "error"]);

/** The node types the analysis reads, fetched from the tree in one pass. */
const NODE_TYPES = [
  "import_statement",
  "export_statement",
  "call_expression",
  "decorator",
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "interface_declaration",
  "type_alias_declaration",
  "function_declaration",
  "function_expression",
];

/**
 * Static facts of one TypeScript/JavaScript file from its syntax tree (`parseSource` of
 * `@nyzhi/index`): imports, routes, data shapes, middleware. Comments and strings are nodes of
 * their own, so code inside them never counts.
 */
export function analyzeJavaScriptFile(file: string, root: SyntaxNode, language: SourceLanguage): FileFacts {
  const facts: FileFacts = {
    file,
    language,
    imports: [],
    importedNames: {},
    endpoints: [],
    models: [],
    middleware: [],
    mounts: [],
    isMain: root.children[0]?.type === "hash_bang_line",
  };
  const nodes = groupByType(root.descendantsOfType(NODE_TYPES));
  const of = (type: string) => nodes.get(type) ?? [];
  collectImports(of, facts);
  collectJavaScriptRoutes(of, facts);
  collectModels(of, facts);
  collectMiddleware(of, facts);
  return facts;
}

type NodesOfType = (type: string) => readonly SyntaxNode[];

function collectImports(of: NodesOfType, facts: FileFacts): void {
  const add = (specifier: string) => {
    if (!facts.imports.includes(specifier)) facts.imports.push(specifier);
  };
  for (const statement of [...of("import_statement"), ...of("export_statement")]) {
    // TypeScript's `import x = require("y")` keeps its source in a clause of its own.
    const requireClause = statement.namedChildren.find((child) => child.type === "import_require_clause");
    const source = stringValue((requireClause ?? statement).childForFieldName("source"));
    if (source === undefined) continue;
    add(source);
    const requiredName = requireClause?.namedChildren.find((child) => child.type === "identifier");
    if (requiredName) facts.importedNames[requiredName.text] = source;
    for (const name of importedBindings(statement)) facts.importedNames[name] = source;
  }
  // `require("x")` and `import("x")` with one plain string.
  for (const call of of("call_expression")) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "import" && !(callee?.type === "identifier" && callee.text === "require")) continue;
    const [argument, ...rest] = callArguments(call);
    if (argument?.type !== "string" || rest.length > 0) continue;
    const specifier = stringValue(argument);
    if (!specifier) continue;
    add(specifier);
    // `const users = require("./users")`, or `require("./users").router`.
    const declarator = call.parent?.type === "member_expression" ? call.parent.parent : call.parent;
    const name = declarator?.type === "variable_declarator" ? declarator.childForFieldName("name") : null;
    if (callee.type === "identifier" && name?.type === "identifier")
      facts.importedNames[name.text] = specifier;
  }
}

/** The local names an import statement binds: `Foo`, `{ a, b as c }` → `c`, `* as ns` → `ns`. */
function importedBindings(statement: SyntaxNode): string[] {
  const clause = statement.namedChildren.find((child) => child.type === "import_clause");
  if (!clause) return [];
  const names: string[] = [];
  for (const part of clause.namedChildren) {
    if (part.type === "identifier") names.push(part.text);
    else if (part.type === "namespace_import") {
      const name = part.namedChildren.find((child) => child.type === "identifier");
      if (name) names.push(name.text);
    } else if (part.type === "named_imports")
      for (const specifier of part.namedChildren) {
        const local = specifier.childForFieldName("alias") ?? specifier.childForFieldName("name");
        if (specifier.type === "import_specifier" && local) names.push(local.text);
      }
  }
  return names;
}

function collectModels(of: NodesOfType, facts: FileFacts): void {
  const declarations = [
    ...of("class_declaration"),
    ...of("abstract_class_declaration"),
    ...of("class"),
    ...of("interface_declaration"),
    ...of("type_alias_declaration"),
  ].sort((left, right) => left.startIndex - right.startIndex);
  for (const declaration of declarations) {
    const name = declaration.childForFieldName("name")?.text;
    if (!name || !/^[A-Z]/.test(name)) continue;
    const kind =
      declaration.type === "interface_declaration"
        ? "interface"
        : declaration.type.includes("class")
          ? "class"
          : "type";
    const body =
      kind === "type" ? declaration.childForFieldName("value") : declaration.childForFieldName("body");
    if (!body || (kind === "type" && body.type !== "object_type")) continue;
    const properties = memberNames(body, kind === "class" ? CLASS_FIELDS : TYPE_PROPERTIES);
    if (properties.length === 0) continue;
    const model: DataModel = {
      name,
      kind: kind === "class" && isEntity(declaration) ? "entity" : kind,
      file: facts.file,
      line: declarationLine(declaration),
      properties,
    };
    facts.models.push(model);
  }
}

/** Member node types that name a property: class fields (TS, JS), and property signatures. */
const CLASS_FIELDS: ReadonlySet<string> = new Set(["public_field_definition", "field_definition"]);
const TYPE_PROPERTIES: ReadonlySet<string> = new Set(["property_signature"]);

/** The names of a body's members of these types, in order, once each (`#private` without its `#`). */
function memberNames(body: SyntaxNode, memberTypes: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const member of body.namedChildren) {
    if (!memberTypes.has(member.type)) continue;
    const key = member.childForFieldName("name") ?? member.childForFieldName("property");
    if (!key || key.type === "computed_property_name") continue;
    const name = stringValue(key) ?? key.text.replace(/^#/, "");
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** A class decorated `@Entity()`, `@Schema()` or `@Table()` (TypeORM, Mongoose, Sequelize). */
function isEntity(declaration: SyntaxNode): boolean {
  const decorators = [
    ...declaration.namedChildren,
    ...(declaration.parent?.type === "export_statement" ? declaration.parent.namedChildren : []),
  ].filter((child) => child.type === "decorator");
  return decorators.some((decorator) => {
    const call = decoratorCall(decorator);
    return call !== undefined && ENTITY_DECORATORS.has(call.name);
  });
}

/** The line of a declaration's first keyword (`export`, `declare`, `class`…), past its decorators. */
function declarationLine(declaration: SyntaxNode): number {
  let outer = declaration;
  if (outer.parent?.type === "ambient_declaration") outer = outer.parent;
  if (outer.parent?.type === "export_statement") outer = outer.parent;
  const first = outer.children.find((child) => child.type !== "decorator" && child.type !== "comment");
  return lineOf(first ?? outer);
}

function collectMiddleware(of: NodesOfType, facts: FileFacts): void {
  const push = (fact: Omit<MiddlewareFact, "file">) => facts.middleware.push({ ...fact, file: facts.file });
  for (const call of of("call_expression")) {
    const member = memberCall(call);
    if (member?.method.text !== "use" || !member.receiver || !ROUTER_RECEIVER.test(member.receiver.text))
      continue;
    const args = callArguments(call);
    const [first, second] = args;
    const line = lineOf(member.receiver);
    const prefix = stringValue(first);
    if (prefix?.startsWith("/") && second !== undefined) {
      // `app.use("/api", usersRouter)` mounts a router; it is middleware only if it looks like auth.
      const mounted = second.type === "identifier" ? second.text : undefined;
      if (mounted) facts.mounts.push({ prefix, identifier: mounted, file: facts.file });
      if (mounted && !AUTH_NAME.test(mounted)) continue;
    }
    for (const argument of args.filter((candidate) => !isStringLiteral(candidate))) {
      if (isErrorHandler(argument))
        push({ kind: "error-handler", name: "(err, req, res, next) handler", line });
      else
        push({
          kind: AUTH_NAME.test(argument.text) ? "auth" : "middleware",
          name: argument.text.replace(/\s+/g, " ").slice(0, 60),
          line,
        });
    }
  }
  for (const fn of [...of("function_declaration"), ...of("function_expression")].sort(
    (left, right) => left.startIndex - right.startIndex,
  )) {
    const name = fn.childForFieldName("name");
    if (name && isErrorHandler(fn)) push({ kind: "error-handler", name: name.text, line: lineOf(fn) });
  }
  for (const decorator of of("decorator")) {
    const call = decoratorCall(decorator);
    if (call?.name !== "UseGuards") continue;
    const list = decorator.namedChildren[0]?.childForFieldName("arguments")?.text ?? "()";
    push({ kind: "auth", name: `@UseGuards(${list.slice(1, -1).trim()})`, line: lineOf(decorator) });
  }
}

/** An Express error handler: a function of four or more parameters, the first named `err` or `error`. */
function isErrorHandler(node: SyntaxNode): boolean {
  if (!["arrow_function", "function_expression", "function_declaration"].includes(node.type)) return false;
  const parameters = (node.childForFieldName("parameters")?.namedChildren ?? []).filter(
    (parameter) => parameter.type !== "comment",
  );
  const first = parameters[0];
  const firstName = first?.type === "identifier" ? first : first?.childForFieldName("pattern");
  return parameters.length >= 4 && firstName?.type === "identifier" && ERROR_PARAMETER.has(firstName.text);
}
