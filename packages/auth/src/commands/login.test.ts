import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  actAsBrowser,
  startFakeAuthorizationServer,
} from "../oauth/__fixtures__/fake-authorization-server.js";
import type { LoginIo } from "../oauth/login-io.js";
import type { CredentialStore } from "../store/credential-store.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import { login } from "./login.js";
import { logout } from "./logout.js";

let directory: string;
let store: CredentialStore;
let printed: string[];
let prompts: { question: string; secret: boolean }[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "nyzhi-auth-login-"));
  store = createFileCredentialStore(join(directory, "auth.json"));
  printed = [];
  prompts = [];
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function scriptedIo(answer: string, openUrl: LoginIo["openUrl"] = () => undefined): LoginIo {
  return {
    print: (line) => printed.push(line),
    prompt: async (question, options) => {
      prompts.push({ question, secret: options.secret });
      return answer;
    },
    openUrl,
  };
}

describe("login", () => {
  it("prompts for an API key (hidden) when the provider has no OAuth and stores it as an API key", async () => {
    const result = await login({
      providerId: "groq",
      io: scriptedIo(" gsk-secret-key-9876 \n"),
      store,
      env: {},
    });
    expect(result).toEqual({
      status: "saved",
      providerId: "groq",
      label: "default",
      type: "api-key",
      storeKind: "file",
    });
    expect(prompts).toEqual([{ question: "API key for Groq:", secret: true }]);
    expect(await store.listAccounts("groq")).toEqual([
      { label: "default", secret: { type: "api-key", key: "gsk-secret-key-9876" }, active: true },
    ]);
    expect(printed.join("\n")).not.toContain("gsk-secret-key-9876");
  });

  it("replaces the active account's key on a second login, and adds a labelled account", async () => {
    await login({ providerId: "groq", io: scriptedIo("key-1"), store, env: {} });
    await login({ providerId: "groq", io: scriptedIo("key-2"), store, env: {} });
    await login({ providerId: "groq", io: scriptedIo("key-3"), store, env: {}, label: "work" });
    expect(await store.listAccounts("groq")).toEqual([
      { label: "default", secret: { type: "api-key", key: "key-2" }, active: true },
      { label: "work", secret: { type: "api-key", key: "key-3" }, active: false },
    ]);
  });

  it("reports an empty key as cancelled and stores nothing", async () => {
    expect(await login({ providerId: "groq", io: scriptedIo(""), store, env: {} })).toEqual({
      status: "cancelled",
      providerId: "groq",
      reason: "no-key",
    });
    expect(printed).toEqual(["No key entered."]);
    expect(await store.listProviders()).toEqual([]);
  });

  it("runs the OAuth flow when the provider has one and stores OAuth tokens", async () => {
    const fake = await startFakeAuthorizationServer();
    try {
      const result = await login({
        providerId: "openai",
        io: scriptedIo("unused", actAsBrowser),
        store,
        env: {},
        oauthProviders: { openai: fake.authorizationCodeProvider() },
        now: () => 0,
      });
      expect(result).toMatchObject({ status: "saved", type: "oauth", label: "default" });
      expect(prompts).toEqual([]);
      expect(await store.listAccounts("openai")).toEqual([
        {
          label: "default",
          active: true,
          secret: { type: "oauth", accessToken: "access-1", refreshToken: "refresh-1", expiresAt: 3_600_000 },
        },
      ]);
      expect(await readFile(join(directory, "auth.json"), "utf8")).toContain('"type": "oauth"');
    } finally {
      await fake.close();
    }
  });

  it("adds account-2 on a second OAuth login for a multi-account provider", async () => {
    const fake = await startFakeAuthorizationServer();
    try {
      const oauthProviders = {
        gemini: fake.authorizationCodeProvider({ providerId: "gemini", multiAccount: true }),
      };
      const options = {
        providerId: "gemini",
        io: scriptedIo("", actAsBrowser),
        store,
        env: {},
        oauthProviders,
      };
      await login(options);
      expect(await login(options)).toMatchObject({ label: "account-2" });
      expect((await store.listAccounts("gemini")).map((account) => [account.label, account.active])).toEqual([
        ["default", true],
        ["account-2", false],
      ]);
    } finally {
      await fake.close();
    }
  });

  it("falls back to the API key prompt when OAuth fails", async () => {
    const fake = await startFakeAuthorizationServer({ forgedState: "evil" });
    try {
      const result = await login({
        providerId: "anthropic",
        io: scriptedIo("sk-ant-fallback-key", actAsBrowser),
        store,
        env: {},
        oauthProviders: { anthropic: fake.authorizationCodeProvider({ providerId: "anthropic" }) },
      });
      expect(result).toMatchObject({ status: "saved", type: "api-key" });
      expect(printed.some((line) => line.startsWith("OAuth login failed: OAuth callback rejected"))).toBe(
        true,
      );
    } finally {
      await fake.close();
    }
  });

  it("logs in to Copilot with the device flow", async () => {
    const fake = await startFakeAuthorizationServer({ devicePolls: ["authorization_pending", "success"] });
    try {
      const result = await login({
        providerId: "github-copilot",
        io: scriptedIo(""),
        store,
        env: {},
        oauthProviders: { "github-copilot": fake.deviceCodeProvider() },
        sleep: async () => undefined,
      });
      expect(result).toMatchObject({ status: "saved", type: "oauth" });
      expect(await store.listAccounts("github-copilot")).toMatchObject([
        { secret: { type: "oauth", accessToken: "copilot-1", refreshToken: "gh-token" } },
      ]);
    } finally {
      await fake.close();
    }
  });
});

describe("logout", () => {
  it("removes one account (activating the next) or all of them, and reports what it removed", async () => {
    await login({ providerId: "groq", io: scriptedIo("key-1"), store, env: {} });
    await login({ providerId: "groq", io: scriptedIo("key-2"), store, env: {}, label: "work" });
    expect(await logout({ providerId: "groq", account: "default", store })).toEqual({
      providerId: "groq",
      removed: ["default"],
    });
    expect((await store.listAccounts("groq")).map((account) => [account.label, account.active])).toEqual([
      ["work", true],
    ]);
    expect(await logout({ providerId: "groq", store })).toEqual({ providerId: "groq", removed: ["work"] });
    expect(await logout({ providerId: "groq", store })).toEqual({ providerId: "groq", removed: [] });
    expect(await store.listProviders()).toEqual([]);
  });
});
