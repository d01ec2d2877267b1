import { describe, expect, it } from "vitest";
import { commentText } from "../store/chunk-rows.js";
import {
  definitionsFirst,
  exactMatchesFirst,
  foldDuplicates,
  fullTextQuery,
  fuseRanks,
  raiseCallees,
  rerank,
} from "./rank-chunks.js";

const row = (
  id: string,
  fields: Partial<{
    path: string;
    symbol: string | null;
    language: string;
    content: string;
    score: number;
    kind: string;
  }> = {},
) => ({
  id,
  path: fields.path ?? `${id}.ts`,
  symbol: fields.symbol ?? null,
  kind: fields.kind ?? "function",
  language: fields.language ?? "typescript",
  content: fields.content ?? `content of ${id}`,
  score: fields.score ?? 1,
});

describe("fullTextQuery", () => {
  it("drops the words of how a question is asked, keeps what it is about, and adds identifiers' words", () => {
    expect(fullTextQuery("where is parseConfigFile implemented")).toBe(
      "parseConfigFile parse config file configuration",
    );
    expect(fullTextQuery("which env var holds the cfg")).toBe(
      "env var holds the cfg environment variable config configuration",
    );
    expect(fullTextQuery("how does the function follow redirects")).toBe("the follow redirects");
    expect(fullTextQuery("  read_user_settings ")).toBe("read_user_settings read user settings");
    expect(fullTextQuery(" ?! ")).toBe("");
  });

  it("keeps a query made only of question words as it is", () => {
    expect(fullTextQuery("where is it")).toBe("it");
    expect(fullTextQuery("how")).toBe("how");
  });
});

describe("rerank", () => {
  it("folds chunks with the same content or the same symbol of a file, keeping the better one", () => {
    const rows = [
      row("a", { path: "index.d.ts", content: "same" }),
      row("b", { path: "index.d.cts", content: "same" }),
      row("c", { path: "core.py", symbol: "Context.lookup_default", content: "overload 1" }),
      row("d", { path: "core.py", symbol: "Context.lookup_default", content: "overload 2" }),
      row("e", { path: "core.py", symbol: "Context.invoke" }),
    ];
    expect(foldDuplicates(rows).map((entry) => entry.id)).toEqual(["a", "c", "e"]);
  });

  it("folds the same symbol of twin files (index.d.ts / index.d.cts, x.js / x.mjs), keeping the better one", () => {
    const rows = [
      row("dts", { path: "index.d.ts", symbol: "AxiosHeaders", content: "declare class AxiosHeaders {}" }),
      row("dcts", { path: "index.d.cts", symbol: "AxiosHeaders", content: "export class AxiosHeaders {}" }),
      row("mjs", { path: "lib/bind.mjs", symbol: "bind", content: "export function bind() {}" }),
      row("cjs", { path: "lib/bind.cjs", symbol: "bind", content: "function bind() {}" }),
      row("other", { path: "lib/other.js", symbol: "bind", content: "function bind(x) {}" }),
    ];
    expect(foldDuplicates(rows).map((entry) => entry.id)).toEqual(["dts", "mjs", "other"]);
  });

  it("puts type declarations below the code that does the work", () => {
    const rows = [row("declaration", { path: "index.d.ts", score: 10 }), row("code", { score: 6 })];
    expect(rerank(rows, "how are request headers merged").map((entry) => entry.id)).toEqual([
      "code",
      "declaration",
    ]);
  });

  it("puts a file's preamble (imports) and loose top-level code below its functions", () => {
    const rows = [
      row("imports", { kind: "preamble", score: 10 }),
      row("glue", { kind: "module", score: 9 }),
      row("function", { symbol: "closeSocket", score: 7 }),
      row("script", { kind: "module", score: 6 }),
    ];
    expect(rerank(rows, "give the connection back to the pool").map((entry) => entry.id)).toEqual([
      "function",
      "glue",
      "imports",
      "script",
    ]);
    // A type's loose members (kind "class" with its symbol) and prose keep their weight.
    const members = [
      row("members", { kind: "class", symbol: "Pool", score: 10 }),
      row("function", { symbol: "closeSocket", score: 9 }),
    ];
    expect(rerank(members, "pool size").map((entry) => entry.id)).toEqual(["members", "function"]);
  });

  it("raises the functions the best hits call (the symbol graph's boost)", () => {
    const rows = [
      row("send", { symbol: "Session.send", score: 10, content: "r = dispatch_hook('response', hooks, r)" }),
      row("mount", { symbol: "Session.mount", score: 9, content: "self.adapters[prefix] = adapter" }),
      row("unrelated", { symbol: "default_hooks", score: 8.5 }),
      row("hook", { symbol: "dispatch_hook", score: 6.8 }),
      row("itself", { symbol: "Session.send", path: "other.py", score: 8 }),
    ];
    expect(rerank(rows, "run callbacks on the reply").map((entry) => entry.id)).toEqual([
      "send",
      "mount",
      "hook",
      "unrelated",
      "itself",
    ]);
    const scored = rows.map((entry) => ({ row: entry, score: entry.score }));
    expect(raiseCallees(scored.slice(0, 3)).map((entry) => entry.id)).toEqual(["send", "mount", "unrelated"]);
  });

  it("puts prose below code unless the query asks for documentation", () => {
    const rows = [row("readme", { language: "markdown", score: 10 }), row("code", { score: 6 })];
    expect(rerank(rows, "retry failed requests").map((entry) => entry.id)).toEqual(["code", "readme"]);
    expect(rerank(rows, "retry failed requests in the readme").map((entry) => entry.id)).toEqual([
      "readme",
      "code",
    ]);
  });

  it("puts the definition of an identifier named in a longer query first", () => {
    const rows = [row("use", { content: "uses parseConfig" }), row("def", { symbol: "Loader.parseConfig" })];
    expect(definitionsFirst(rows, "where does parseConfig read the file").map((entry) => entry.id)).toEqual([
      "def",
      "use",
    ]);
    expect(definitionsFirst(rows, "where is the config read").map((entry) => entry.id)).toEqual([
      "use",
      "def",
    ]);
  });
});

describe("exactMatchesFirst", () => {
  const rows = [
    { id: 1, symbol: null, content: "parse the config file" },
    { id: 2, symbol: "other", content: "calls parseConfigFile(path)" },
    { id: 3, symbol: "Loader.parseConfigFile", content: "parseConfigFile() {}" },
    { id: 4, symbol: null, content: "parseConfigFileSync" },
  ];

  it("puts the definition first, then whole-word uses, then the rest, each in ranked order", () => {
    expect(exactMatchesFirst(rows, "parseConfigFile").map((entry) => entry.id)).toEqual([3, 2, 1, 4]);
    expect(definitionsFirst(rows, "parseConfigFile").map((entry) => entry.id)).toEqual([3, 2, 1, 4]);
  });

  it("leaves a query of plain words in ranked order", () => {
    expect(definitionsFirst(rows, "parse config file").map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
  });
});

describe("fuseRanks", () => {
  it("adds reciprocal ranks across lists, so a chunk high in both comes first", () => {
    const fused = fuseRanks(
      [
        [row("a"), row("b"), row("c")],
        [row("b"), row("c"), row("d")],
      ],
      (entry) => entry.id,
    );
    expect(fused.map((entry) => entry.id)).toEqual(["b", "c", "a", "d"]);
  });
});

describe("commentText", () => {
  it("keeps the words of comments and docstrings, not the code", () => {
    const python =
      'def f():\n    """Return the thing."""\n    x = 1  # count them\n    return "#notacomment"\n';
    expect(commentText(python)).toBe("Return the thing.\ncount them");
    expect(commentText("/**\n * Joins two paths.\n */\nfunction join(a, b) { // slash once\n}")).toBe(
      "Joins two paths.\nslash once",
    );
  });
});
