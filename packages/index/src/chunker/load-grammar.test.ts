import { expect, it } from "vitest";
import type { GrammarName } from "./languages.js";
import { getParser } from "./load-grammar.js";

const grammars: GrammarName[] = [
  "typescript",
  "tsx",
  "javascript",
  "python",
  "go",
  "rust",
  "java",
  "cpp",
  "c-sharp",
  "ruby",
];

it("loads every grammar from the installed wasm files", async () => {
  for (const grammar of grammars) {
    const parser = await getParser(grammar);
    const tree = parser.parse("x");
    expect(tree?.rootNode).toBeDefined();
    tree?.delete();
  }
});

it("loads each grammar once", async () => {
  const [first, second] = await Promise.all([getParser("go"), getParser("go")]);
  expect(first).toBe(second);
  expect(await getParser("go")).toBe(first);
});
