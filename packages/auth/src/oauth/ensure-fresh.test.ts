import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { upsertAccount } from "../accounts/account-list.js";
import type { Credential } from "../credentials/credential.js";
import { resolveCredential } from "../credentials/resolve-credential.js";
import type { CredentialStore } from "../store/credential-store.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import {
  type FakeAuthorizationServer,
  startFakeAuthorizationServer,
} from "./__fixtures__/fake-authorization-server.js";
import { ensureFresh } from "./ensure-fresh.js";

const NOW = 1_700_000_000_000;
let fake: FakeAuthorizationServer;
let directory: string;
let store: CredentialStore;

beforeEach(async () => {
  fake = await startFakeAuthorizationServer();
  directory = await mkdtemp(join(tmpdir(), "nyzhi-auth-refresh-"));
  store = createFileCredentialStore(join(directory, "auth.json"));
});

afterEach(async () => {
  await fake.close();
  await rm(directory, { recursive: true, force: true });
});

const stored = (expiresAt: number): Credential => ({
  type: "oauth",
  providerId: "openai",
  accessToken: "access-old",
  refreshToken: "refresh-old",
  expiresAt,
  source: "store",
  account: "default",
});

describe("ensureFresh", () => {
  it("refreshes a token expiring within 60 s and persists it, keeping the refresh token", async () => {
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "default", {
        type: "oauth",
        accessToken: "access-old",
        refreshToken: "refresh-old",
        expiresAt: NOW + 30_000,
      }),
    );
    const providers = { openai: fake.authorizationCodeProvider() };
    const fresh = await ensureFresh(stored(NOW + 30_000), { store, providers, now: () => NOW });
    expect(fresh).toEqual({ ...stored(NOW + 3_600_000), accessToken: "access-1" });
    expect(fake.requests.map((request) => request.params)).toEqual([
      { grant_type: "refresh_token", client_id: "test-client", refresh_token: "refresh-old" },
    ]);
    expect(await store.listAccounts("openai")).toEqual([
      {
        label: "default",
        active: true,
        secret: {
          type: "oauth",
          accessToken: "access-1",
          refreshToken: "refresh-old",
          expiresAt: NOW + 3_600_000,
        },
      },
    ]);
  });

  it("leaves a token with more than 60 s left, and API keys, alone", async () => {
    const providers = { openai: fake.authorizationCodeProvider() };
    const credential = stored(NOW + 61_000);
    expect(await ensureFresh(credential, { store, providers, now: () => NOW })).toBe(credential);
    const key: Credential = { type: "api-key", providerId: "openai", key: "k", source: "env" };
    expect(await ensureFresh(key, { providers, now: () => NOW })).toBe(key);
    expect(fake.requests).toEqual([]);
  });

  it("refreshes a token that still looks valid when forced (the server rejected it)", async () => {
    const providers = { openai: fake.authorizationCodeProvider() };
    const credential = stored(NOW + 3_000_000);
    const fresh = await ensureFresh(credential, { providers, now: () => NOW, force: true });
    expect(fresh).toMatchObject({ accessToken: "access-1", refreshToken: "refresh-old" });
    expect(fake.requests).toHaveLength(1);
  });

  it("refreshes once when two processes find the same token rejected (built package)", async () => {
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "default", {
        type: "oauth",
        accessToken: "access-old",
        refreshToken: "refresh-old",
        expiresAt: Date.now() + 3_600_000,
      }),
    );
    const dist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
    const script = `
      const auth = await import(${JSON.stringify(dist)});
      const store = auth.createFileCredentialStore(${JSON.stringify(join(directory, "auth.json"))});
      const credential = { type: "oauth", providerId: "openai", accessToken: "access-old",
        refreshToken: "refresh-old", expiresAt: Date.now() + 3_600_000, source: "store", account: "default" };
      const fresh = await auth.ensureFresh(credential, { store, force: true, lockDir: ${JSON.stringify(directory)},
        providers: { openai: ${JSON.stringify(fake.authorizationCodeProvider())} } });
      console.log(fresh.accessToken);`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.on("error", reject);
        child.on("close", () => resolve(output.trim()));
      });
    const tokens = await Promise.all([run(), run()]);
    expect(tokens).toEqual(["access-1", "access-1"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("runs on resolution of a stored token", async () => {
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "default", {
        type: "oauth",
        accessToken: "access-old",
        refreshToken: "refresh-old",
        expiresAt: NOW + 1_000,
      }),
    );
    const credential = await resolveCredential("openai", {
      env: {},
      store,
      now: () => NOW,
      oauthProviders: { openai: fake.authorizationCodeProvider() },
    });
    expect(credential).toMatchObject({ type: "oauth", accessToken: "access-1" });
  });

  it("refreshes a Copilot token by re-exchanging the GitHub token", async () => {
    const copilot: Credential = {
      type: "oauth",
      providerId: "github-copilot",
      accessToken: "copilot-old",
      refreshToken: "gh-token",
      expiresAt: NOW,
      source: "store",
      account: "default",
    };
    const fresh = await ensureFresh(copilot, {
      providers: { "github-copilot": fake.deviceCodeProvider() },
      now: () => NOW,
    });
    expect(fresh).toMatchObject({
      accessToken: "copilot-1",
      refreshToken: "gh-token",
      expiresAt: 2_000_000_000_000,
    });
  });

  it("throws auth_refresh_failed without the refresh token in the message", async () => {
    const credential = { ...stored(NOW), refreshToken: "bad-token" };
    const error = await ensureFresh(credential, {
      providers: { openai: fake.authorizationCodeProvider() },
      now: () => NOW,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "auth_refresh_failed" });
    expect((error as Error).message).not.toContain("bad-token");
  });
});
