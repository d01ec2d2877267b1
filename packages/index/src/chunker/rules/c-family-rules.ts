import type { Node } from "web-tree-sitter";
import {
  bodyChildren,
  fieldText,
  type SyntaxRole,
  type SyntaxRules,
  typeWithBody,
  unit,
} from "../syntax-rules.js";

/** C and C++, both parsed with the C++ grammar. */
export const cFamilyRules: SyntaxRules = {
  attachable: new Set(["comment"]),
  noise: new Set(["access_specifier"]),
  classify,
};

const PREPROCESSOR_BLOCKS = new Set([
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
  "preproc_elifdef",
]);

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "function_definition": {
      const { name, scope } = declaratorName(node.childForFieldName("declarator"));
      return unit("function", node, name, scope);
    }
    case "class_specifier":
    case "struct_specifier":
    case "union_specifier":
      return node.childForFieldName("body") ? typeWithBody(node) : undefined;
    case "enum_specifier":
      return node.childForFieldName("body") ? unit("type", node) : undefined;
    case "type_definition":
      // `typedef struct { … } Point;`
      return unit("type", node, fieldText(node, "declarator"));
    case "template_declaration": {
      const inner = node.namedChildren.find((child) => child.type !== "template_parameter_list");
      return inner ? classify(inner) : undefined;
    }
    case "namespace_definition":
    case "linkage_specification":
      return { role: "transparent", children: bodyChildren(node) };
    default:
      if (PREPROCESSOR_BLOCKS.has(node.type)) {
        // `#ifdef X … #else … #endif`: judge what is inside, not the condition.
        const children = node.namedChildren.filter((_, index) => {
          const field = node.fieldNameForNamedChild(index);
          return field !== "name" && field !== "condition";
        });
        return { role: "transparent", children };
      }
      return undefined;
  }
}

/**
 * The function's name from its declarator (`*add(int a)`, `Shape::area() const`), and for an
 * out-of-class definition `Shape::area` the type it belongs to (the last qualifier: namespaces
 * and classes look alike here).
 */
function declaratorName(declarator: Node | null): { name: string | undefined; scope?: string | undefined } {
  let node = declarator;
  while (node) {
    switch (node.type) {
      case "function_declarator":
      case "pointer_declarator":
      case "reference_declarator":
      case "parenthesized_declarator":
      case "attributed_declarator":
        node =
          node.childForFieldName("declarator") ??
          node.namedChildren.find(
            (child) => child.type.endsWith("declarator") || child.type.endsWith("identifier"),
          ) ??
          null;
        break;
      case "qualified_identifier": {
        let scope = node.childForFieldName("scope")?.text;
        let name = node.childForFieldName("name");
        while (name?.type === "qualified_identifier") {
          scope = name.childForFieldName("scope")?.text;
          name = name.childForFieldName("name");
        }
        return { name: name?.text, scope };
      }
      default:
        return { name: node.text };
    }
  }
  return { name: undefined };
}
