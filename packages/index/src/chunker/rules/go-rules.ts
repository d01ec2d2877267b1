import type { Node } from "web-tree-sitter";
import { fieldText, type SyntaxRole, type SyntaxRules, unit } from "../syntax-rules.js";

export const goRules: SyntaxRules = {
  attachable: new Set(["comment"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "function_declaration":
      return unit("function", node);
    case "method_declaration":
      // `func (s *Server) Start()` is `Server.Start`.
      return unit("function", node, fieldText(node), receiverType(node));
    case "type_declaration": {
      const specs = node.namedChildren.filter(
        (child) => child.type === "type_spec" || child.type === "type_alias",
      );
      const spec = specs[0];
      if (specs.length !== 1 || !spec) return unit("type", node, undefined);
      const type = spec.childForFieldName("type")?.type;
      const kind = type === "struct_type" ? "class" : type === "interface_type" ? "interface" : "type";
      return unit(kind, node, fieldText(spec));
    }
    default:
      return undefined;
  }
}

function receiverType(method: Node): string | undefined {
  const parameter = method
    .childForFieldName("receiver")
    ?.namedChildren.find((child) => child.type === "parameter_declaration");
  let type = parameter?.childForFieldName("type");
  while (type && (type.type === "pointer_type" || type.type === "generic_type")) {
    type = type.type === "pointer_type" ? type.namedChild(0) : type.childForFieldName("type");
  }
  return type?.text;
}
