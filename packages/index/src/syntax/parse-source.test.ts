import { afterEach, describe, expect, it, vi } from "vitest";
import { GrammarLoadError, parseSource, type SyntaxNode } from "./parse-source.js";

/** The node's type and text with its 1-based line, for whole-object assertions. */
const describeNode = (node: SyntaxNode) => ({
  type: node.type,
  text: node.text,
  line: node.startPosition.row + 1,
});

afterEach(() => {
  vi.doUnmock("../chunker/load-grammar.js");
  vi.resetModules();
});

describe("parseSource", () => {
  it("parses TypeScript by its extension and hands over the tree", async () => {
    const content = `// import "./commented"\nimport { a as b } from "./x.js";\nconst s = "import './in-string'";\n`;
    const imports = await parseSource({ path: "src/a.ts", content }, (root) =>
      root.descendantsOfType("import_statement").map((node) => ({
        source: node.childForFieldName("source")?.text,
        line: node.startPosition.row + 1,
      })),
    );
    expect(imports).toEqual([{ source: '"./x.js"', line: 2 }]);
  });

  it("picks the TSX grammar for .tsx and the Python grammar for .py", async () => {
    const tsx = await parseSource({ path: "view.tsx", content: "const v = <div>{x}</div>;\n" }, (root) =>
      root.descendantsOfType("jsx_element").map(describeNode),
    );
    expect(tsx).toEqual([{ type: "jsx_element", text: "<div>{x}</div>", line: 1 }]);
    const python = await parseSource(
      { path: "m.py", content: 'def f():\n    """doc: import os"""\n    import sys\n' },
      (root) => root.descendantsOfType(["import_statement", "import_from_statement"]).map(describeNode),
    );
    expect(python).toEqual([{ type: "import_statement", text: "import sys", line: 3 }]);
  });

  it("gives fields, named and anonymous children and parents", async () => {
    const result = await parseSource(
      { path: "a.js", content: "export default app.get('/x', h);" },
      (root) => {
        const statement = root.namedChildren[0]!;
        const call = statement.childForFieldName("value")!;
        return {
          statement: statement.type,
          keywords: statement.children.filter((child) => !child.isNamed).map((child) => child.type),
          callee: call.childForFieldName("function")?.text,
          arguments: call.childForFieldName("arguments")!.namedChildren.map((argument) => argument.type),
          parent: call.parent?.type,
          hasError: root.hasError,
        };
      },
    );
    expect(result).toEqual({
      statement: "export_statement",
      keywords: ["export", "default", ";"],
      callee: "app.get",
      arguments: ["string", "identifier"],
      parent: "export_statement",
      hasError: false,
    });
  });

  it("still gives a tree for broken code, with the rest intact", async () => {
    const names = await parseSource(
      { path: "a.ts", content: "function ok() {}\nconst = ;\nclass Fine {}\n" },
      (root) => ({
        hasError: root.hasError,
        declarations: root
          .descendantsOfType(["function_declaration", "class_declaration"])
          .map((node) => node.childForFieldName("name")?.text),
      }),
    );
    expect(names).toEqual({ hasError: true, declarations: ["ok", "Fine"] });
  });

  it("resolves undefined for a file without a grammar, without calling read", async () => {
    const read = vi.fn();
    expect(await parseSource({ path: "notes.md", content: "# x" }, read)).toBeUndefined();
    expect(read).not.toHaveBeenCalled();
  });

  it("rejects with a GrammarLoadError naming the grammar and file when the grammar cannot load", async () => {
    vi.resetModules();
    vi.doMock("../chunker/load-grammar.js", () => ({
      getParser: () => Promise.reject(new Error("ENOENT: tree-sitter-python.wasm")),
    }));
    const { parseSource: parseWithBrokenGrammar, GrammarLoadError: FreshGrammarLoadError } = await import(
      "./parse-source.js"
    );
    const failure = parseWithBrokenGrammar({ path: "app.py", content: "x = 1" }, () => 1);
    await expect(failure).rejects.toBeInstanceOf(FreshGrammarLoadError);
    await expect(failure).rejects.toMatchObject({
      code: "index_grammar",
      message: expect.stringContaining('"python" to parse app.py: ENOENT: tree-sitter-python.wasm'),
    });
    expect(GrammarLoadError).toBeDefined();
  });
});
