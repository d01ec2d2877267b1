import { describe, expect, it } from "vitest";
import { defaultConfig } from "../schema/config-schema.js";
import {
  isKnownProvider,
  knownProviderIds,
  nearestProviderId,
  UnknownProviderError,
} from "./unknown-provider-error.js";

describe("known provider ids", () => {
  const config = { provider: { default: "mine", mine: { base_url: "http://localhost:9" } } };

  it("are the built-in ones, then those configured under [provider.<id>]", () => {
    expect(knownProviderIds(config).slice(0, 3)).toEqual(["openai", "anthropic", "gemini"]);
    expect(knownProviderIds(config).at(-1)).toBe("mine");
    expect(isKnownProvider("openrouter")).toBe(true);
    expect(isKnownProvider("mine", config)).toBe(true);
    expect(isKnownProvider("mine")).toBe(false);
    expect(isKnownProvider("default", config)).toBe(false);
    expect(isKnownProvider("openai", defaultConfig())).toBe(true);
  });

  it("suggest the nearest id for a typo, and nothing for a name far from every id", () => {
    expect(nearestProviderId("antropic")).toBe("anthropic");
    expect(nearestProviderId("OpenRuoter")).toBe("openrouter");
    expect(nearestProviderId("mien", config)).toBe("mine");
    expect(nearestProviderId("zzzzzz")).toBeUndefined();
  });
});

describe("UnknownProviderError", () => {
  it("names the id, where it came from, the nearest id and how to add a provider", () => {
    const error = new UnknownProviderError("antropic", { source: "--provider" });
    expect(error.code).toBe("provider_unknown");
    expect(error.suggestion).toBe("anthropic");
    expect(error.message).toMatch(
      /^Unknown provider 'antropic' \(from --provider\)\. Did you mean 'anthropic'\? /,
    );
    expect(error.message).toContain("Known providers: openai, anthropic, gemini,");
    expect(error.message).toContain("[provider.antropic] table with base_url");
  });

  it("can phrase the suggestion as a whole model spec", () => {
    const error = new UnknownProviderError("antropic", { suggest: (id) => `${id}/claude-x` });
    expect(error.message).toContain("Did you mean 'anthropic/claude-x'?");
  });
});
