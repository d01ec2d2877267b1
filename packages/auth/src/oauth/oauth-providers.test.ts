import { describe, expect, it } from "vitest";
import { defaultOAuthProviders } from "./oauth-providers.js";

describe("defaultOAuthProviders", () => {
  it("NYZHI_<PROVIDER>_OAUTH_URL points a browser login at another authorization server", () => {
    const table = defaultOAuthProviders({ NYZHI_ANTHROPIC_OAUTH_URL: "http://127.0.0.1:9/oauth/" });
    expect(table.anthropic).toMatchObject({
      authorizeUrl: "http://127.0.0.1:9/oauth/authorize",
      tokenUrl: "http://127.0.0.1:9/oauth/token",
    });
    // Others keep their own endpoints.
    expect(table.openai).toMatchObject({ authorizeUrl: "https://auth.openai.com/oauth/authorize" });
    expect(defaultOAuthProviders({}).anthropic).toMatchObject({
      authorizeUrl: "https://console.anthropic.com/oauth/authorize",
    });
  });
});
