import { expect, it } from "vitest";
import { detectLanguage } from "./languages.js";

it.each([
  ["src/a.ts", "typescript", "typescript"],
  ["src/a.mts", "typescript", "typescript"],
  ["src/App.TSX", "tsx", "tsx"],
  ["lib/a.cjs", "javascript", "javascript"],
  ["tool.pyi", "python", "python"],
  ["main.go", "go", "go"],
  ["lib.rs", "rust", "rust"],
  ["A.java", "java", "java"],
  // No C grammar ships in @vscode/tree-sitter-wasm: C is parsed with the C++ grammar.
  ["list.h", "c", "cpp"],
  ["shape.hpp", "cpp", "cpp"],
  ["Invoice.cs", "csharp", "c-sharp"],
  ["tasks.rake", "ruby", "ruby"],
  ["README.md", "markdown", undefined],
  ["config/app.yml", "yaml", undefined],
  ["Dockerfile", "dockerfile", undefined],
  ["LICENSE", "text", undefined],
  [".env.example", "text", undefined],
])("%s is %s", (path, language, grammar) => {
  expect(detectLanguage(path)).toEqual({ language, grammar });
});
