import type { Node } from "web-tree-sitter";
import { type SyntaxRole, type SyntaxRules, typeWithBody, unit } from "../syntax-rules.js";

export const javaRules: SyntaxRules = {
  attachable: new Set(["line_comment", "block_comment"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "class_declaration":
    case "enum_declaration":
    case "record_declaration":
      return typeWithBody(node);
    case "interface_declaration":
    case "annotation_type_declaration":
      return unit("interface", node);
    case "method_declaration":
    case "constructor_declaration":
    case "compact_constructor_declaration":
      return unit("function", node);
    case "enum_body_declarations":
      // The members after an enum's constants.
      return { role: "transparent", children: node.namedChildren };
    default:
      return undefined;
  }
}
