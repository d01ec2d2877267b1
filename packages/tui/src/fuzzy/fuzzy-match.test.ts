import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyMatch } from "./fuzzy-match.js";

describe("fuzzyFilter", () => {
  it("ranks the models whose name holds the query above letters scattered over a provider's name", () => {
    const models = [
      "github-copilot/gemini-3.1-pro",
      "kimi-coding/kimi-k2-turbo-preview",
      "github-copilot/o4-mini",
      "github-copilot/gpt-5.2",
      "anthropic/claude-sonnet-4-6",
    ];
    const ranked = fuzzyFilter(models, "gpt", (model) => `${model} ${model}`).map((result) => result.item);
    expect(ranked[0]).toBe("github-copilot/gpt-5.2");
  });

  it("highlights the run of characters it matched", () => {
    expect(fuzzyMatch("gpt", "github-copilot/gpt-5.2")?.positions).toEqual([15, 16, 17]);
    expect(fuzzyMatch("gcp", "github-copilot")?.positions).toEqual([0, 7, 9]);
  });
});
