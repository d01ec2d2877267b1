import { type Logger, setLogger } from "@nyzhi/config";
import { afterEach, expect, it, vi } from "vitest";
import { chunkFile } from "./chunk-file.js";

vi.mock("./load-grammar.js", () => ({
  getParser: vi.fn(async () => {
    throw new Error("tree-sitter-typescript.wasm: no such file");
  }),
}));

afterEach(() => setLogger(undefined));

it("falls back to windows, with a log line, when a grammar cannot be loaded", async () => {
  const warn = vi.fn();
  setLogger({ warn, debug: vi.fn(), info: vi.fn() } as unknown as Logger);
  const content = "export function f() {\n  return 1;\n}\n";
  const chunks = await chunkFile({ path: "src/f.ts", content });
  expect(chunks).toEqual([
    {
      path: "src/f.ts",
      startLine: 1,
      endLine: 3,
      symbol: undefined,
      kind: "window",
      language: "typescript",
      content: "export function f() {\n  return 1;\n}",
    },
  ]);
  expect(warn).toHaveBeenCalledWith(
    expect.objectContaining({ path: "src/f.ts", grammar: "typescript" }),
    "index chunker: parse failed, using text windows",
  );
});
