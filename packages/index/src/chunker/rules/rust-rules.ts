import type { Node } from "web-tree-sitter";
import { bodyChildren, type SyntaxRole, type SyntaxRules, unit } from "../syntax-rules.js";

export const rustRules: SyntaxRules = {
  attachable: new Set(["line_comment", "block_comment", "attribute_item"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "function_item":
    case "macro_definition":
      return unit("function", node);
    case "struct_item":
    case "union_item":
      return unit("class", node);
    case "enum_item":
    case "type_item":
      return unit("type", node);
    case "trait_item":
      return unit("interface", node);
    case "impl_item":
      // `impl Display for Point<T>`: its functions are `Point.fmt`; the block is no chunk itself.
      return { role: "scope", name: typeName(node.childForFieldName("type")), children: bodyChildren(node) };
    case "mod_item":
      return node.childForFieldName("body")
        ? { role: "transparent", children: bodyChildren(node) }
        : undefined;
    default:
      return undefined;
  }
}

function typeName(type: Node | null): string | undefined {
  if (!type) return undefined;
  if (type.type === "generic_type") return typeName(type.childForFieldName("type"));
  if (type.type === "scoped_type_identifier") return type.childForFieldName("name")?.text;
  if (type.type === "reference_type") return typeName(type.childForFieldName("type"));
  return type.text;
}
