import type { Node } from "web-tree-sitter";
import {
  bodyChildren,
  fieldText,
  type SyntaxRole,
  type SyntaxRules,
  typeWithBody,
  unit,
} from "../syntax-rules.js";

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/** TypeScript, TSX and JavaScript (their grammars share these node types). */
export const typescriptRules: SyntaxRules = {
  attachable: new Set(["comment", "decorator"]),
  classify,
};

function classify(node: Node): SyntaxRole | undefined {
  switch (node.type) {
    case "export_statement": {
      const inner = node.childForFieldName("declaration") ?? node.childForFieldName("value");
      if (!inner) return undefined;
      const role = classify(inner);
      // `export default function () {}` and `export default class {}` have no name of their own.
      if (role && (role.role === "unit" || role.role === "type") && role.name === undefined) {
        return { ...role, name: "default" };
      }
      return role;
    }
    case "function_declaration":
    case "generator_function_declaration":
    case "function_expression":
    case "function":
    case "generator_function":
      return unit("function", node);
    case "class_declaration":
    case "abstract_class_declaration":
    case "class":
      return typeWithBody(node);
    case "method_definition":
      return unit("function", node);
    case "public_field_definition": {
      const value = node.childForFieldName("value");
      return value && FUNCTION_VALUES.has(value.type) ? unit("function", node) : undefined;
    }
    case "interface_declaration":
      return unit("interface", node);
    case "type_alias_declaration":
    case "enum_declaration":
      return unit("type", node);
    case "lexical_declaration":
    case "variable_declaration":
      return classifyFunctionVariable(node);
    case "expression_statement": {
      const only = node.namedChildCount === 1 ? node.namedChild(0) : null;
      return only && (only.type === "internal_module" || only.type === "module") ? classify(only) : undefined;
    }
    case "ambient_declaration": {
      // `declare class …`, `declare module "m" { … }`, `declare global { … }`.
      const declared = node.namedChild(0);
      if (declared?.type === "statement_block")
        return { role: "transparent", children: declared.namedChildren };
      return declared ? classify(declared) : undefined;
    }
    case "internal_module":
    case "module":
      return { role: "transparent", children: bodyChildren(node) };
    default:
      return undefined;
  }
}

/** `const handler = async () => { … }`: a function named by its one declarator. */
function classifyFunctionVariable(node: Node): SyntaxRole | undefined {
  const declarators = node.namedChildren.filter((child) => child.type === "variable_declarator");
  const declarator = declarators.length === 1 ? declarators[0] : undefined;
  const value = declarator?.childForFieldName("value");
  if (!declarator || !value || !FUNCTION_VALUES.has(value.type)) return undefined;
  return unit("function", value, fieldText(declarator));
}
