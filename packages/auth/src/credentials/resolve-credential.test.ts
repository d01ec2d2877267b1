import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { upsertAccount } from "../accounts/account-list.js";
import { MissingCredentialError } from "../errors/auth-errors.js";
import type { CredentialStore } from "../store/credential-store.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import { envVarForProvider } from "./env-var-for-provider.js";
import { requireCredential, resolveCredential } from "./resolve-credential.js";

let directory: string;
let store: CredentialStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "nyzhi-auth-resolve-"));
  store = createFileCredentialStore(join(directory, "auth.json"));
  await store.update("openai", (accounts) =>
    upsertAccount(accounts, "default", { type: "api-key", key: "stored-key" }),
  );
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("resolveCredential", () => {
  const env = { OPENAI_API_KEY: "env-key" };

  it("takes the flag over config, env and store", async () => {
    const credential = await resolveCredential("openai", {
      flag: "flag-key",
      configApiKey: "config-key",
      env,
      store,
    });
    expect(credential).toEqual({ type: "api-key", providerId: "openai", key: "flag-key", source: "flag" });
  });

  it("takes config over env and store", async () => {
    const credential = await resolveCredential("openai", { configApiKey: "config-key", env, store });
    expect(credential).toEqual({
      type: "api-key",
      providerId: "openai",
      key: "config-key",
      source: "config",
    });
  });

  it("takes env over the store and names the variable", async () => {
    const credential = await resolveCredential("openai", { env, store });
    expect(credential).toEqual({
      type: "api-key",
      providerId: "openai",
      key: "env-key",
      source: "env",
      envVar: "OPENAI_API_KEY",
    });
  });

  it("ignores empty values and falls through to the store", async () => {
    const credential = await resolveCredential("openai", {
      flag: "",
      configApiKey: "",
      env: { OPENAI_API_KEY: "" },
      store,
    });
    expect(credential).toEqual({
      type: "api-key",
      providerId: "openai",
      key: "stored-key",
      source: "store",
      account: "default",
    });
  });

  it("keeps a stored API key an API key, also for gemini (spec DEFECT §2.2)", async () => {
    await store.update("gemini", (accounts) =>
      upsertAccount(accounts, "default", { type: "api-key", key: "AIza-stored" }),
    );
    const credential = await resolveCredential("gemini", { env: {}, store });
    expect(credential).toEqual({
      type: "api-key",
      providerId: "gemini",
      key: "AIza-stored",
      source: "store",
      account: "default",
    });
  });

  it("returns a stored OAuth token as oauth", async () => {
    await store.update("anthropic", (accounts) =>
      upsertAccount(accounts, "default", { type: "oauth", accessToken: "at", refreshToken: "rt" }),
    );
    const credential = await resolveCredential("anthropic", { env: {}, store });
    expect(credential).toEqual({
      type: "oauth",
      providerId: "anthropic",
      accessToken: "at",
      refreshToken: "rt",
      source: "store",
      account: "default",
    });
  });

  it("skips an account in cooldown", async () => {
    const now = () => 1_000_000;
    await store.update("openai", (accounts) =>
      accounts.map((account) => ({ ...account, rateLimitedUntil: 2_000_000 })),
    );
    expect(await resolveCredential("openai", { env: {}, store, now })).toBeUndefined();
  });

  it("uses the derived env var for ids outside the built-in table", async () => {
    expect(envVarForProvider("my-llm")).toBe("MY_LLM_API_KEY");
    const credential = await resolveCredential("my-llm", { env: { MY_LLM_API_KEY: "k" } });
    expect(credential).toMatchObject({ key: "k", envVar: "MY_LLM_API_KEY" });
  });
});

describe("requireCredential", () => {
  it("names the env var and nyz login in the error", async () => {
    const error = await requireCredential("anthropic", { env: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(error).toMatchObject({
      code: "auth_missing",
      envVar: "ANTHROPIC_API_KEY",
      providerId: "anthropic",
    });
    expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
    expect((error as Error).message).toContain("nyz login anthropic");
  });

  it("says when every stored account is rate limited", async () => {
    await store.update("openai", (accounts) =>
      accounts.map((account) => ({ ...account, rateLimitedUntil: 31_000 })),
    );
    const error = await requireCredential("openai", { env: {}, store, now: () => 1_000 }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(
      /rate limited for another 30 s.*OPENAI_API_KEY.*nyz login openai/,
    );
    expect((error as Error).message).not.toContain("stored-key");
  });
});
