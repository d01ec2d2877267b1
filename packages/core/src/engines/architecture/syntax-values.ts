import type { SyntaxNode } from "@nyzhi/index";

/** The 1-based line a node starts on. */
export const lineOf = (node: SyntaxNode): number => node.startPosition.row + 1;

/** Whether a node is a string literal: `"…"`, `'…'` or a template literal (JS/TS), any Python string. */
export const isStringLiteral = (node: SyntaxNode | null | undefined): boolean =>
  node?.type === "string" || node?.type === "template_string";

/**
 * The contents of a string literal as written, without its quotes (escapes are not decoded; a
 * template literal keeps its `${…}`), or undefined for any other node. Python's prefixes and
 * triple quotes (`r"…"`, `"""…"""`) are left out with the quotes.
 */
export function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node || !isStringLiteral(node)) return undefined;
  const first = node.children[0];
  const last = node.children.at(-1);
  if (first?.type === "string_start" && last?.type === "string_end")
    return node.text.slice(first.endIndex - node.startIndex, last.startIndex - node.startIndex);
  return node.text.slice(1, -1);
}

/** The arguments of a call (JS `arguments`, Python `argument_list`), comments left out. */
export function callArguments(call: SyntaxNode): SyntaxNode[] {
  const list = call.childForFieldName("arguments");
  return list ? list.namedChildren.filter((argument) => argument.type !== "comment") : [];
}

/** Nodes grouped by type, each group in source order. */
export function groupByType(nodes: readonly SyntaxNode[]): Map<string, SyntaxNode[]> {
  const groups = new Map<string, SyntaxNode[]>();
  for (const node of nodes) {
    if (!node.isNamed) continue;
    const group = groups.get(node.type);
    if (group) group.push(node);
    else groups.set(node.type, [node]);
  }
  return groups;
}
