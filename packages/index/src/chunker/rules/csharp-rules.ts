import type { Node } from "web-tree-sitter";
import { bodyChildren, type SyntaxRole, type SyntaxRules, typeWithBody, unit } from "../syntax-rules.js";

export const csharpRules: SyntaxRules = {
  attachable: new Set(["comment"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "class_declaration":
    case "struct_declaration":
    case "record_declaration":
      return typeWithBody(node);
    case "interface_declaration":
      return unit("interface", node);
    case "enum_declaration":
    case "delegate_declaration":
      return unit("type", node);
    case "method_declaration":
    case "constructor_declaration":
    case "destructor_declaration":
    case "operator_declaration":
    case "conversion_operator_declaration":
    case "local_function_statement":
      return unit("function", node);
    case "namespace_declaration":
      return { role: "transparent", children: bodyChildren(node) };
    default:
      return undefined;
  }
}
