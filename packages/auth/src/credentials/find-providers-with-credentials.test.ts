import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { upsertAccount } from "../accounts/account-list.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import { candidateProviders, findProvidersWithCredentials } from "./find-providers-with-credentials.js";

async function storeWith(providerIds: readonly string[]) {
  const store = createFileCredentialStore(
    join(await mkdtemp(join(tmpdir(), "nyzhi-find-creds-")), "auth.json"),
  );
  for (const id of providerIds) {
    await store.update(id, (accounts) =>
      upsertAccount(accounts, "default", { type: "api-key", key: `key-${id}` }),
    );
  }
  return store;
}

describe("findProvidersWithCredentials", () => {
  it("finds an environment key without opening the store, and never picks claude-sdk for ANTHROPIC_API_KEY", async () => {
    let opened = 0;
    const found = await findProvidersWithCredentials({
      env: { ANTHROPIC_API_KEY: "sk-ant" },
      openStore: async () => {
        opened++;
        return storeWith(["openai"]);
      },
    });
    expect(found).toEqual({ providerIds: ["anthropic"], source: "env-or-config" });
    expect(opened).toBe(0);
  });

  it("orders several by preference (anthropic, openai, gemini, openrouter, then the rest), config keys counting", async () => {
    const found = await findProvidersWithCredentials({
      env: { GROQ_API_KEY: "g", OPENROUTER_API_KEY: "o", OPENAI_API_KEY: "sk" },
      config: { provider: { default: "openai", gemini: { api_key: "gk" }, mine: { api_key: "mk" } } },
    });
    expect(found).toEqual({
      providerIds: ["openai", "gemini", "openrouter", "groq", "mine"],
      source: "env-or-config",
    });
  });

  it("reads the credential store only when the environment and config hold no key", async () => {
    const store = await storeWith(["groq", "openai"]);
    expect(await findProvidersWithCredentials({ env: {}, openStore: async () => store })).toEqual({
      providerIds: ["openai", "groq"],
      source: "store",
    });
    expect(await findProvidersWithCredentials({ env: {}, openStore: async () => storeWith([]) })).toEqual({
      providerIds: [],
      source: "none",
    });
  });

  it("offers no agent-CLI provider as a candidate", () => {
    expect(candidateProviders()).not.toContain("claude-sdk");
    expect(candidateProviders()).not.toContain("codex");
    expect(candidateProviders().slice(0, 4)).toEqual(["anthropic", "openai", "gemini", "openrouter"]);
  });
});
