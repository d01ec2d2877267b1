import type { GrammarName } from "./languages.js";
import { cFamilyRules } from "./rules/c-family-rules.js";
import { csharpRules } from "./rules/csharp-rules.js";
import { goRules } from "./rules/go-rules.js";
import { javaRules } from "./rules/java-rules.js";
import { pythonRules } from "./rules/python-rules.js";
import { rubyRules } from "./rules/ruby-rules.js";
import { rustRules } from "./rules/rust-rules.js";
import { typescriptRules } from "./rules/typescript-rules.js";
import type { SyntaxRules } from "./syntax-rules.js";

/** Which node types are units, types and wrappers, per grammar. */
export const RULES_BY_GRAMMAR: Record<GrammarName, SyntaxRules> = {
  typescript: typescriptRules,
  tsx: typescriptRules,
  javascript: typescriptRules,
  python: pythonRules,
  go: goRules,
  rust: rustRules,
  java: javaRules,
  cpp: cFamilyRules,
  "c-sharp": csharpRules,
  ruby: rubyRules,
};
