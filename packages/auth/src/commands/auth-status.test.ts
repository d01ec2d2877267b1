import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { upsertAccount } from "../accounts/account-list.js";
import type { CredentialStore } from "../store/credential-store.js";
import { createFileCredentialStore } from "../store/file-credential-store.js";
import { authStatus, formatAuthStatus } from "./auth-status.js";

const NOW = 1_700_000_000_000;
const SECRETS = [
  "sk-env-openai-key-0001",
  "sk-ant-config-key-0002",
  "gsk-stored-work-0003",
  "gsk-stored-home-0004",
  "gho-copilot-token-0005",
];
let directory: string;
let store: CredentialStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "nyzhi-auth-status-"));
  store = createFileCredentialStore(join(directory, "auth.json"));
  await store.update("groq", (accounts) =>
    upsertAccount(accounts, "work", { type: "api-key", key: SECRETS[2]! }),
  );
  await store.update("groq", (accounts) =>
    upsertAccount(accounts, "home", { type: "api-key", key: SECRETS[3]! }).map((account) =>
      account.label === "work" ? { ...account, rateLimitedUntil: NOW + 10_000 } : account,
    ),
  );
  await store.update("github-copilot", (accounts) =>
    upsertAccount(accounts, "default", {
      type: "oauth",
      accessToken: SECRETS[4]!,
      refreshToken: "gh-refresh-secret",
    }),
  );
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("authStatus", () => {
  it("reports config, env, connected and not connected per built-in provider, with masked values", async () => {
    const rows = await authStatus({
      env: { OPENAI_API_KEY: SECRETS[0] },
      config: { provider: { default: "openai", anthropic: { api_key: SECRETS[1] } } },
      store,
      now: () => NOW,
    });
    expect(rows).toHaveLength(18);
    expect(rows.slice(0, 3)).toEqual([
      {
        id: "openai",
        name: "OpenAI",
        status: "env",
        envVar: "OPENAI_API_KEY",
        masked: "sk-…0001",
        accounts: [],
      },
      { id: "anthropic", name: "Anthropic", status: "config", masked: "sk-…0002", accounts: [] },
      { id: "gemini", name: "Google Gemini", status: "not connected", accounts: [] },
    ]);
    expect(rows.find((row) => row.id === "groq")).toEqual({
      id: "groq",
      name: "Groq",
      status: "connected",
      accounts: [
        { label: "work", active: true, rateLimited: true, type: "api-key", masked: "gsk…0003" },
        { label: "home", active: false, rateLimited: false, type: "api-key", masked: "gsk…0004" },
      ],
    });
    const serialized = JSON.stringify(rows);
    for (const secret of [...SECRETS, "gh-refresh-secret"]) expect(serialized).not.toContain(secret);
  });

  it("formats providers with their accounts after them and never prints a secret", async () => {
    const rows = await authStatus({
      env: { OPENAI_API_KEY: SECRETS[0] },
      config: { provider: { default: "openai", anthropic: { api_key: SECRETS[1] } } },
      store,
      now: () => NOW,
    });
    const text = formatAuthStatus(rows);
    const lines = text.split("\n");
    expect(lines[0]).toBe("OpenAI               env (OPENAI_API_KEY sk-…0001)");
    expect(lines[1]).toBe("Anthropic            config (api_key sk-…0002)");
    const groq = lines.indexOf("Groq                 connected");
    expect(lines.slice(groq, groq + 3)).toEqual([
      "Groq                 connected",
      "  * work  gsk…0003  (api-key, rate limited)",
      "    home  gsk…0004  (api-key)",
    ]);
    const copilot = lines.indexOf("GitHub Copilot       connected");
    expect(lines[copilot + 1]).toBe("  * default  gho…0005  (oauth)");
    for (const secret of [...SECRETS, "gh-refresh-secret"]) expect(text).not.toContain(secret);
  });
});
