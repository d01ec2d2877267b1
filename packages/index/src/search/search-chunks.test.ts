import { describe, expect, it } from "vitest";
import { capPerFile, exactMatchesFirst, fullTextQuery } from "./search-chunks.js";

describe("capPerFile", () => {
  it("keeps rank order, at most three chunks of a file, and stops at k", () => {
    const rows = ["a", "a", "b", "a", "a", "c", "b", "d"].map((path, rank) => ({ path, rank }));
    expect(capPerFile(rows, 10).map((row) => `${row.path}${row.rank}`)).toEqual([
      "a0",
      "a1",
      "b2",
      "a3",
      "c5",
      "b6",
      "d7",
    ]);
    expect(capPerFile(rows, 4).map((row) => `${row.path}${row.rank}`)).toEqual(["a0", "a1", "b2", "a3"]);
  });
});

describe("exactMatchesFirst", () => {
  const rows = [
    { id: 1, symbol: null, content: "parse the config file" },
    { id: 2, symbol: "other", content: "calls parseConfigFile(path)" },
    { id: 3, symbol: "Loader.parseConfigFile", content: "parseConfigFile() {}" },
    { id: 4, symbol: null, content: "parseConfigFileSync" },
  ];

  it("puts the definition first, then whole-word uses, then the rest, each in fused order", () => {
    expect(exactMatchesFirst(rows, "parseConfigFile").map((row) => row.id)).toEqual([3, 2, 1, 4]);
  });

  it("leaves a query of several words as fused", () => {
    expect(exactMatchesFirst(rows, "parse config file").map((row) => row.id)).toEqual([1, 2, 3, 4]);
  });
});

describe("fullTextQuery", () => {
  it("adds the words of compound identifiers, and is empty without any word", () => {
    expect(fullTextQuery("where is parseConfigFile")).toBe("where is parseConfigFile parse config file");
    expect(fullTextQuery("  read_user_settings ")).toBe("read_user_settings read user settings");
    expect(fullTextQuery(" ?! ")).toBe("");
  });
});
