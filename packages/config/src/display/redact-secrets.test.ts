import { describe, expect, it } from "vitest";
import { forEachSecretValue, isSecretKeyName, isSecretKeyPath, redactSecrets } from "./redact-secrets.js";

describe("isSecretKeyPath", () => {
  it.each([
    "provider.anthropic.api_key",
    "external_notify.telegram_bot_token",
    "agent.token",
    "x.client_secret",
    "x.password",
    "mcp.servers.github.env.GITHUB_TOKEN",
    "mcp.servers.github.env.ANYTHING",
    "mcp.servers.api.headers.Authorization",
    "shell.env.FOO",
  ])("%s is a secret", (keyPath) => {
    expect(isSecretKeyPath(keyPath)).toBe(true);
  });

  it.each([
    "models.max_tokens",
    "provider.anthropic.max_tokens",
    "agent.voice.api_key_env",
    "tui.show_thinking",
    "provider.anthropic.model",
  ])("%s is not a secret", (keyPath) => {
    expect(isSecretKeyPath(keyPath)).toBe(false);
  });

  it("reads camelCase and kebab-case key names", () => {
    expect(["apiKey", "accessToken", "X-Api-Key", "refresh_token"].map(isSecretKeyName)).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });
});

describe("redactSecrets", () => {
  it("masks credentials and keeps max_tokens", () => {
    expect(
      redactSecrets({
        models: { max_tokens: 4096 },
        provider: { anthropic: { api_key: "sk-1", max_tokens: 100 } },
      }),
    ).toEqual({
      models: { max_tokens: 4096 },
      provider: { anthropic: { api_key: "[redacted]", max_tokens: 100 } },
    });
  });
});

describe("forEachSecretValue", () => {
  it("visits only string leaves whose own key names a credential", () => {
    const seen: string[] = [];
    forEachSecretValue(
      {
        provider: { anthropic: { api_key: "sk-config", max_tokens: 5 } },
        mcp: { servers: { gh: { env: { GITHUB_TOKEN: "ghp-x", DEBUG: "verbose-mode" } } } },
        shell: { env: { NODE_ENV: "development" } },
      },
      (secret) => seen.push(secret),
    );
    expect(seen).toEqual(["sk-config", "ghp-x"]);
  });
});
