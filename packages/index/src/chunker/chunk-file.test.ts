import { readFileSync } from "node:fs";
import { type Logger, setLogger } from "@nyzhi/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CodeChunk } from "../types.js";
import { chunkFile } from "./chunk-file.js";
import { CHARS_PER_TOKEN, MAX_CHUNK_TOKENS, SPLIT_OVERLAP_LINES } from "./chunk-limits.js";

const fixtures = new URL("../__fixtures__/chunker/", import.meta.url);

async function chunkFixture(name: string): Promise<{ chunks: CodeChunk[]; content: string }> {
  const content = readFileSync(new URL(name, fixtures), "utf8");
  return { chunks: await chunkFile({ path: `src/${name}`, content }), content };
}

/** Lines `start`..`end` (1-based, inclusive) of a text. */
function linesOf(content: string, start: number, end: number): string {
  return content
    .split("\n")
    .slice(start - 1, end)
    .join("\n");
}

/** The chunk as a row of the expected table: kind, symbol, first and last line. */
const outline = (chunk: CodeChunk) => [chunk.kind, chunk.symbol, chunk.startLine, chunk.endLine];

describe("chunkFile: units, symbol paths and line ranges", () => {
  it("cuts a TypeScript file into a preamble, a class header, its methods, types and module code", async () => {
    const { chunks, content } = await chunkFixture("greeter.ts");
    const chunk = (
      kind: CodeChunk["kind"],
      symbol: string | undefined,
      startLine: number,
      endLine: number,
    ) => ({
      path: "src/greeter.ts",
      startLine,
      endLine,
      symbol,
      kind,
      language: "typescript",
      content: linesOf(content, startLine, endLine),
    });
    expect(chunks).toEqual([
      chunk("preamble", undefined, 1, 1),
      // The class chunk is its doc comment, declaration and fields, up to the first method.
      chunk("class", "Greeter", 3, 5),
      chunk("method", "Greeter.constructor", 7, 9),
      // A method's doc comment belongs to it.
      chunk("method", "Greeter.greet", 11, 14),
      chunk("interface", "GreeterOptions", 17, 19),
      chunk("type", "Name", 21, 21),
      chunk("function", "shout", 23, 23),
      chunk("module", undefined, 25, 25),
    ]);
  });

  it("cuts a Python file, with decorators and docstrings", async () => {
    const { chunks, content } = await chunkFixture("shapes.py");
    const chunk = (
      kind: CodeChunk["kind"],
      symbol: string | undefined,
      startLine: number,
      endLine: number,
    ) => ({
      path: "src/shapes.py",
      startLine,
      endLine,
      symbol,
      kind,
      language: "python",
      content: linesOf(content, startLine, endLine),
    });
    expect(chunks).toEqual([
      chunk("preamble", undefined, 1, 2),
      chunk("class", "Circle", 5, 8),
      chunk("method", "Circle.__init__", 10, 11),
      chunk("method", "Circle.area", 13, 15),
      chunk("function", "unit_circle", 18, 19),
      chunk("module", undefined, 22, 22),
    ]);
  });

  it.each([
    [
      "server.go",
      "go",
      [
        ["preamble", undefined, 1, 3],
        ["class", "Server", 5, 8],
        ["method", "Server.Start", 10, 13],
        ["function", "New", 15, 17],
      ],
    ],
    [
      "point.rs",
      "rust",
      [
        ["preamble", undefined, 1, 1],
        // Doc comment and attribute belong to the struct; an impl block only names its functions.
        ["class", "Point", 3, 7],
        ["method", "Point.fmt", 10, 12],
        ["interface", "Shape", 15, 17],
        ["function", "main", 19, 21],
      ],
    ],
    [
      "Greeter.java",
      "java",
      [
        ["preamble", undefined, 1, 3],
        ["class", "Greeter", 5, 7],
        ["method", "Greeter.Greeter", 9, 11],
        ["method", "Greeter.toString", 13, 16],
        ["interface", "Named", 19, 21],
      ],
    ],
    [
      "Invoice.cs",
      "csharp",
      [
        // A namespace adds nothing to symbol paths; its opening lines are in the preamble.
        ["preamble", undefined, 1, 4],
        ["class", "Invoice", 5, 8],
        ["method", "Invoice.Add", 10, 14],
        ["interface", "IPayable", 17, 20],
      ],
    ],
    [
      "list.c",
      "c",
      [
        ["preamble", undefined, 1, 1],
        ["type", "Node", 3, 5],
        ["function", "node_new", 7, 13],
        // Units inside #ifdef blocks are found.
        ["function", "node_dump", 16, 16],
      ],
    ],
    [
      "shape.cpp",
      "cpp",
      [
        ["preamble", undefined, 1, 3],
        ["class", "Shape", 5, 6],
        ["method", "Shape.~Shape", 7, 7],
        ["method", "Shape.area", 8, 8],
        // An out-of-class definition names its class.
        ["method", "Shape.perimeter", 13, 15],
      ],
    ],
    [
      "greeter.rb",
      "ruby",
      [
        ["preamble", undefined, 1, 1],
        ["class", "Greeter", 3, 5],
        ["method", "Greeter.initialize", 7, 9],
        ["method", "Greeter.default", 11, 13],
        ["module", undefined, 16, 16],
      ],
    ],
    [
      "widget.tsx",
      "tsx",
      [
        ["preamble", undefined, 1, 1],
        ["function", "Counter", 3, 6],
      ],
    ],
    [
      "events.js",
      "javascript",
      [
        ["preamble", undefined, 1, 3],
        ["function", "on", 5, 7],
        ["module", undefined, 9, 9],
      ],
    ],
    ["notes.md", "markdown", [["window", undefined, 1, 3]]],
  ])("cuts %s (%s)", async (name, language, expected) => {
    const { chunks, content } = await chunkFixture(name);
    expect(chunks.map(outline)).toEqual(expected);
    for (const chunk of chunks) {
      expect(chunk.language).toBe(language);
      expect(chunk.content).toBe(linesOf(content, chunk.startLine, chunk.endLine));
    }
  });
});

describe("chunkFile: long units", () => {
  /** A function of `bodyLines` statements behind a two-line signature. */
  function longFunction(bodyLines: number): string {
    const body = Array.from(
      { length: bodyLines },
      (_, index) => `  total += compute(input, ${index}); // step ${index}`,
    );
    return [
      'import { compute } from "./compute.js";',
      "",
      "export function accumulate(",
      "  input: number): number {",
      "  let total = 0;",
      ...body,
      "  return total;",
      "}",
      "",
    ].join("\n");
  }

  it("splits a unit over the token budget into overlapping parts that keep its signature", async () => {
    const content = longFunction(200);
    const lines = content.split("\n");
    const chunks = await chunkFile({ path: "src/accumulate.ts", content });
    const [preamble, ...parts] = chunks;
    expect(preamble?.kind).toBe("preamble");
    expect(parts.length).toBeGreaterThanOrEqual(4);
    expect(parts[0]?.startLine).toBe(3);
    expect(parts[parts.length - 1]?.endLine).toBe(lines.length - 1);
    for (const [index, part] of parts.entries()) {
      expect(part).toMatchObject({ kind: "function", symbol: "accumulate", language: "typescript" });
      expect(part.content.length).toBeLessThanOrEqual(MAX_CHUNK_TOKENS * CHARS_PER_TOKEN);
      const own = linesOf(content, part.startLine, part.endLine);
      if (index === 0) {
        expect(part.content).toBe(own);
        continue;
      }
      // Both signature lines, then the part's own lines.
      expect(part.content).toBe(`export function accumulate(\n  input: number): number {\n${own}`);
      // Each part repeats the last lines of the one before.
      const previous = parts[index - 1]!;
      expect(part.startLine).toBe(previous.endLine - SPLIT_OVERLAP_LINES + 1);
    }
  });

  it("keeps a unit within the budget whole", async () => {
    const chunks = await chunkFile({ path: "src/accumulate.ts", content: longFunction(20) });
    expect(chunks.map(outline)).toEqual([
      ["preamble", undefined, 1, 1],
      ["function", "accumulate", 3, 27],
    ]);
  });
});

describe("chunkFile: text and edge cases", () => {
  it("cuts other text into 60-line windows overlapping by 5, skipping blank ones", async () => {
    const lines = Array.from({ length: 130 }, (_, index) => (index >= 115 ? "" : `line ${index + 1}`));
    const chunks = await chunkFile({ path: "docs/notes.txt", content: lines.join("\n") });
    expect(chunks.map(outline)).toEqual([
      ["window", undefined, 1, 60],
      ["window", undefined, 56, 115],
    ]);
    expect(chunks[0]?.language).toBe("text");
    expect(chunks[1]?.content).toBe(lines.slice(55, 115).join("\n"));
  });

  it("gives nothing for an empty file and handles CRLF line ends", async () => {
    expect(await chunkFile({ path: "a.ts", content: "" })).toEqual([]);
    const chunks = await chunkFile({
      path: "a.ts",
      content: "import x from 'x';\r\n\r\nfunction f() {\r\n  return x;\r\n}\r\n",
    });
    expect(chunks.map((chunk) => [...outline(chunk), chunk.content])).toEqual([
      ["preamble", undefined, 1, 1, "import x from 'x';"],
      ["function", "f", 3, 5, "function f() {\n  return x;\n}"],
    ]);
  });

  it("makes a script without units one module chunk", async () => {
    const content = "#!/usr/bin/env python3\nimport sys\n\nprint(sys.argv)\n";
    const chunks = await chunkFile({ path: "bin/run.py", content });
    expect(chunks.map(outline)).toEqual([["module", undefined, 1, 4]]);
  });
});

describe("chunkFile: files the grammar cannot make sense of", () => {
  afterEach(() => setLogger(undefined));

  it("cuts them into windows and logs it", async () => {
    const debug = vi.fn();
    setLogger({ debug, warn: vi.fn(), info: vi.fn() } as unknown as Logger);
    const content = "}}} ))) <<< @@@ %%%\n".repeat(3);
    const chunks = await chunkFile({ path: "src/broken.ts", content });
    expect(chunks.map(outline)).toEqual([["window", undefined, 1, 3]]);
    expect(debug).toHaveBeenCalledWith(
      { path: "src/broken.ts", grammar: "typescript" },
      "index chunker: unparsable file, using text windows",
    );
  });

  it("keeps the units of a file with a local syntax error, and the broken part as module code", async () => {
    const content = "function good() {\n  return 1;\n}\n\nconst broken = ((;\n\nfunction alsoGood() {}\n";
    const chunks = await chunkFile({ path: "src/partly.ts", content });
    // The parser's error node swallows what follows it; nothing is lost.
    expect(chunks.map(outline)).toEqual([
      ["function", "good", 1, 3],
      ["module", undefined, 5, 7],
    ]);
  });
});

describe("chunkFile: declaration files", () => {
  it("finds units inside declare global, declare module and namespaces", async () => {
    const content = [
      "declare global {",
      "  interface Window { app: string }",
      "}",
      'declare module "events" {',
      "  export class Emitter {",
      "    on(): void;",
      "  }",
      "}",
      "namespace Util {",
      "  export function id<T>(value: T): T {",
      "    return value;",
      "  }",
      "}",
    ].join("\n");
    const chunks = await chunkFile({ path: "types/globals.d.ts", content });
    expect(chunks.map(outline)).toEqual([
      ["preamble", undefined, 1, 1],
      ["interface", "Window", 2, 2],
      ["class", "Emitter", 5, 7],
      ["function", "id", 10, 12],
    ]);
  });
});

describe("chunkFile: comments", () => {
  it("gives a unit the comments right above it, not one trailing the line before or after a blank line", async () => {
    const content = [
      "const limit = 3; // the cap",
      "/** Doubles. */",
      "function double(x: number) {",
      "  return x * 2;",
      "}",
      "",
      "// A section heading.",
      "",
      "function triple(x: number) {",
      "  return x * 3;",
      "}",
    ].join("\n");
    const chunks = await chunkFile({ path: "src/math.ts", content });
    expect(chunks.map(outline)).toEqual([
      ["preamble", undefined, 1, 1],
      ["function", "double", 2, 5],
      ["function", "triple", 9, 11],
    ]);
  });
});
