import { describe, expect, it } from "vitest";
import { lightStem, relatedWords } from "./code-thesaurus.js";

describe("code thesaurus", () => {
  it("relates API words of one idea, in any inflection, leaving out words already given", () => {
    expect(relatedWords(["wipe"])).toEqual(expect.arrayContaining(["remove", "delete", "clear"]));
    expect(relatedWords(["Replies"])).toEqual(expect.arrayContaining(["response"]));
    expect(relatedWords(["clearing"])).toContain("delete");
    expect(relatedWords(["delete", "remove"])).not.toContain("remove");
    expect(relatedWords(["zebra"])).toEqual([]);
  });

  it("stems common inflections only", () => {
    expect(["clears", "cleared", "clearing", "entries", "matches", "stopped"].map(lightStem)).toEqual([
      "clear",
      "clear",
      "clear",
      "entry",
      "match",
      "stop",
    ]);
    expect(lightStem("class")).toBe("class");
  });
});
