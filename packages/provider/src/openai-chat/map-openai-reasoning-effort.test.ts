import { describe, expect, it } from "vitest";
import { mapOpenAIReasoningEffort } from "./map-openai-reasoning-effort.js";

describe("mapOpenAIReasoningEffort", () => {
  it("keeps OpenAI's own efforts and maps max to xhigh", () => {
    expect(mapOpenAIReasoningEffort("low", 16_384)).toBe("low");
    expect(mapOpenAIReasoningEffort("max")).toBe("xhigh");
    expect(mapOpenAIReasoningEffort(undefined)).toBe("high");
  });

  it("turns a token budget (/think budget N) into the nearest effort", () => {
    expect(mapOpenAIReasoningEffort("on", 2048)).toBe("low");
    expect(mapOpenAIReasoningEffort("on", 8000)).toBe("medium");
    expect(mapOpenAIReasoningEffort("on", 10_000)).toBe("high");
    expect(mapOpenAIReasoningEffort("on")).toBe("high");
  });
});
