import type { Node } from "web-tree-sitter";
import type { CodeChunk } from "../types.js";
import { lastRow, type SyntaxRole, type SyntaxRules } from "./syntax-rules.js";

/** A range of rows (0-based, inclusive) with what the chunk made of it will say. */
export interface SyntaxPiece {
  startRow: number;
  endRow: number;
  kind: CodeChunk["kind"];
  symbol: string | undefined;
  /** Rows of the declaration line(s), repeated at the top of each part when the piece is split. */
  signature?: { startRow: number; endRow: number } | undefined;
}

/** Loose code: statements that belong to no unit. `scope` is the type they sit in, if any. */
export interface LooseRange {
  startRow: number;
  endRow: number;
  scope: string | undefined;
}

export type SyntaxItem = { unit: SyntaxPiece } | { loose: LooseRange };

/**
 * The units of a syntax tree, in file order, and the loose code between them. Units are found
 * at the top level, inside wrappers (namespaces, exports, `#ifdef`) and inside types, never
 * inside function bodies (a nested function is part of its parent). Comments, decorators and
 * attributes on the lines right above a unit belong to it.
 */
export function extractSyntaxItems(root: Node, rules: SyntaxRules, lines: readonly string[]): SyntaxItem[] {
  const items: SyntaxItem[] = [];
  visitChildren(root.namedChildren, { rules, lines, scope: [], insideType: false }, items);
  return items;
}

interface VisitContext {
  rules: SyntaxRules;
  lines: readonly string[];
  scope: string[];
  insideType: boolean;
}

function visitChildren(children: readonly Node[], context: VisitContext, items: SyntaxItem[]): void {
  let attachedStart: number | undefined;
  let attachedEnd = -1;
  let previousEnd = -1;
  for (const child of children) {
    const startRow = child.startPosition.row;
    if (context.rules.attachable.has(child.type)) {
      // A comment trailing the previous statement on its line stays with that statement.
      if (startRow <= previousEnd) continue;
      if (attachedStart === undefined || startRow > attachedEnd + 1) attachedStart = startRow;
      attachedEnd = lastRow(child);
      continue;
    }
    const leadingRow = attachedStart !== undefined && startRow <= attachedEnd + 1 ? attachedStart : startRow;
    attachedStart = undefined;
    previousEnd = lastRow(child);
    if (context.rules.noise?.has(child.type)) continue;
    visitNode(child, leadingRow, context, items);
  }
}

function visitNode(node: Node, leadingRow: number, context: VisitContext, items: SyntaxItem[]): void {
  const role = context.rules.classify(node);
  const startRow = node.startPosition.row;
  const endRow = lastRow(node);
  const scopeSymbol = context.scope.length > 0 ? context.scope.join(".") : undefined;
  if (!role) {
    items.push({
      loose: { startRow: leadingRow, endRow, scope: context.insideType ? scopeSymbol : undefined },
    });
    return;
  }
  switch (role.role) {
    case "transparent":
      visitChildren(role.children, context, items);
      return;
    case "scope":
      visitChildren(
        role.children,
        { ...context, scope: [...context.scope, ...(role.name ? [role.name] : [])], insideType: true },
        items,
      );
      return;
    case "unit": {
      const scope = role.scope ? [...context.scope, role.scope] : context.scope;
      const kind = role.kind === "function" && (context.insideType || role.scope) ? "method" : role.kind;
      items.push({
        unit: {
          startRow: leadingRow,
          endRow,
          kind,
          symbol: joinSymbol(scope, role.name),
          signature: signatureRows(startRow, role.declaration, context.lines),
        },
      });
      return;
    }
    case "type":
      visitType(role, { startRow: leadingRow, endRow, declarationRow: startRow }, context, items);
  }
}

/**
 * A class-like type: a header chunk (declaration, docs, fields) up to its first method, then its
 * members. Loose code before the first method is part of the header.
 */
function visitType(
  role: Extract<SyntaxRole, { role: "type" }>,
  rows: { startRow: number; endRow: number; declarationRow: number },
  context: VisitContext,
  items: SyntaxItem[],
): void {
  const symbol = joinSymbol(context.scope, role.name);
  const members: SyntaxItem[] = [];
  const memberScope = role.name ? [...context.scope, role.name] : context.scope;
  visitChildren(role.body.namedChildren, { ...context, scope: memberScope, insideType: true }, members);
  const signature = signatureRows(rows.declarationRow, role.declaration, context.lines);
  const firstUnit = members.findIndex((member) => "unit" in member);
  const firstUnitRow =
    firstUnit < 0 ? undefined : (members[firstUnit] as { unit: SyntaxPiece }).unit.startRow;
  // No methods, or a method on the declaration's own line: the whole type is one unit.
  if (firstUnitRow === undefined || firstUnitRow <= rows.declarationRow) {
    items.push({ unit: { startRow: rows.startRow, endRow: rows.endRow, kind: "class", symbol, signature } });
    return;
  }
  items.push({
    unit: { startRow: rows.startRow, endRow: firstUnitRow - 1, kind: "class", symbol, signature },
  });
  items.push(...members.slice(firstUnit));
}

function joinSymbol(scope: readonly string[], name: string | undefined): string | undefined {
  if (name === undefined) return scope.length > 0 ? scope.join(".") : undefined;
  return [...scope, name].join(".");
}

/**
 * The declaration's lines up to where its body starts: `function f(a, b) {` (one row) or a
 * multi-line parameter list. A body that starts its row (Python's indented block) is not part
 * of it.
 */
function signatureRows(
  startRow: number,
  declaration: Node,
  lines: readonly string[],
): { startRow: number; endRow: number } {
  const body = declaration.childForFieldName("body");
  if (!body) return { startRow, endRow: startRow };
  const { row, column } = body.startPosition;
  const bodyStartsRow = (lines[row] ?? "").slice(0, column).trim() === "";
  return { startRow, endRow: Math.max(startRow, bodyStartsRow ? row - 1 : row) };
}
