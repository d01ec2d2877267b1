import type { Node } from "web-tree-sitter";
import { type SyntaxRole, type SyntaxRules, typeWithBody, unit } from "../syntax-rules.js";

export const pythonRules: SyntaxRules = {
  attachable: new Set(["comment"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "function_definition":
      return unit("function", node);
    case "class_definition":
      return typeWithBody(node);
    case "decorated_definition": {
      const definition = node.childForFieldName("definition");
      return definition ? classify(definition) : undefined;
    }
    default:
      return undefined;
  }
}
