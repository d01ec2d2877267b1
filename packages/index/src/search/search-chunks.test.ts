import { describe, expect, it } from "vitest";
import { capPerFile } from "./search-chunks.js";

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
