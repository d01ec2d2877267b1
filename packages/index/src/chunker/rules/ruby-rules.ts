import type { Node } from "web-tree-sitter";
import { bodyChildren, type SyntaxRole, type SyntaxRules, typeWithBody, unit } from "../syntax-rules.js";

export const rubyRules: SyntaxRules = {
  attachable: new Set(["comment"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "method":
    case "singleton_method":
      // `def self.create` inside `class Greeter` is `Greeter.create`, like an instance method.
      return unit("function", node);
    case "class":
    case "module":
      return typeWithBody(node);
    case "singleton_class":
      // `class << self`: its methods belong to the enclosing class.
      return { role: "transparent", children: bodyChildren(node) };
    default:
      return undefined;
  }
}
