import type { Node } from "web-tree-sitter";

/** The kinds a grammar rule can give a unit; `function` becomes `method` inside a type. */
export type UnitKind = "function" | "class" | "interface" | "type";

/**
 * What a top-level node (or a node in a type's body) is to the chunker:
 * - `unit`: one chunk (split if long) — a function, method, interface, type alias, a class
 *   without methods;
 * - `type`: a class-like declaration whose methods become their own chunks; the lines before
 *   its first method (header, fields) are the type's own chunk;
 * - `scope`: a block that only names the methods in it (a Rust `impl`): no chunk of its own;
 * - `transparent`: a wrapper whose children are judged as if they stood in its place
 *   (namespaces, `#ifdef` blocks): it adds nothing to symbol paths.
 * `undefined` is loose code: it ends up in the preamble or a `module` chunk.
 */
export type SyntaxRole =
  | { role: "unit"; kind: UnitKind; name: string | undefined; declaration: Node; scope?: string | undefined }
  | { role: "type"; name: string | undefined; declaration: Node; body: Node }
  | { role: "scope"; name: string | undefined; children: Node[] }
  | { role: "transparent"; children: Node[] };

export interface SyntaxRules {
  /** Comments, decorators, attributes: they join the unit on the line right below them. */
  attachable: ReadonlySet<string>;
  /** Nodes that are never a chunk's reason to exist (`public:` in a C++ class). */
  noise?: ReadonlySet<string>;
  classify(node: Node): SyntaxRole | undefined;
}

/** The last row a node covers (0-based); a node ending at column 0 ends on the row above. */
export function lastRow(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row - 1 : row;
}

/** The text of the node's `name` field. */
export function fieldText(node: Node, field = "name"): string | undefined {
  return node.childForFieldName(field)?.text;
}

/** The named children of a node's `body` field (or of the node when it has none). */
export function bodyChildren(node: Node, field = "body"): Node[] {
  return (node.childForFieldName(field) ?? node).namedChildren;
}

export function unit(
  kind: UnitKind,
  declaration: Node,
  name: string | undefined = fieldText(declaration),
  scope?: string,
): SyntaxRole {
  return { role: "unit", kind, name, declaration, scope };
}

/** A class-like declaration: its `body` holds members, or it is one unit when it has no body. */
export function typeWithBody(declaration: Node, name = fieldText(declaration), field = "body"): SyntaxRole {
  const body = declaration.childForFieldName(field);
  return body ? { role: "type", name, declaration, body } : unit("class", declaration, name);
}
