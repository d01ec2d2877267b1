import { mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileCredentialStore, upsertAccount } from "@nyzhi/auth";
import { defaultConfig } from "@nyzhi/config";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { collectStream } from "@nyzhi/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModelResolver } from "./model-resolver.js";

let mock: MockLlm;
let tokenServer: Server;
let tokenUrl: string;
let tokenRequests: string[];

beforeEach(async () => {
  mock = await startMockLlm();
  tokenRequests = [];
  tokenServer = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      tokenRequests.push(body);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ access_token: "access-new", refresh_token: "refresh-new", expires_in: 3600 }),
      );
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, "127.0.0.1", resolve));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
});

afterEach(async () => {
  await mock.close();
  await new Promise((resolve) => tokenServer.close(resolve));
});

describe("createModelResolver", () => {
  it("refreshes a stored OAuth token the server rejects (401) and retries with it, once", async () => {
    // The token still looks valid (expires in an hour), but the server has revoked it.
    mock.setScenario({
      rules: [
        {
          match: { header: { authorization: "Bearer access-old" } },
          response: { fault: { type: "status", status: 401 } },
        },
        { response: { text: "hello again" } },
      ],
    });
    const store = createFileCredentialStore(
      join(await mkdtemp(join(tmpdir(), "nyzhi-resolver-")), "auth.json"),
    );
    await store.update("openai", (accounts) =>
      upsertAccount(accounts, "default", {
        type: "oauth",
        accessToken: "access-old",
        refreshToken: "refresh-old",
        expiresAt: Date.now() + 3_600_000,
      }),
    );
    const config = defaultConfig();
    config.provider.default = "openai";
    const resolve = createModelResolver({
      config,
      env: { OPENAI_BASE_URL: `${mock.url}/v1` },
      store,
      oauthProviders: {
        openai: {
          flow: "authorization-code",
          providerId: "openai",
          clientId: "test-client",
          authorizeUrl: `${tokenUrl}/authorize`,
          tokenUrl,
          scopes: [],
          redirectHost: "127.0.0.1",
          callbackPath: "/cb",
          port: 0,
          timeoutMs: 5_000,
          multiAccount: false,
        },
      },
    });
    const { model } = await resolve("gpt-5.2");
    const response = await collectStream(model.doStream({ messages: [{ role: "user", content: "hi" }] }));
    expect(response.error).toBeUndefined();
    expect(response.text).toBe("hello again");
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]).toContain("refresh_token=refresh-old");
    expect(mock.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer access-old",
      "Bearer access-new",
    ]);
    const [account] = await store.listAccounts("openai");
    expect(account?.secret).toMatchObject({ accessToken: "access-new", refreshToken: "refresh-new" });
  });
});

describe("createModelResolver: provider ids", () => {
  const resolverFor = (defaultProvider: string, extra: Record<string, unknown> = {}) => {
    const config = defaultConfig();
    config.provider.default = defaultProvider;
    Object.assign(config.provider, extra);
    return createModelResolver({
      config,
      env: { OPENAI_API_KEY: "sk", OPENROUTER_API_KEY: "or", ANTHROPIC_API_KEY: "ant" },
      providerSource: "--provider",
    });
  };

  it("refuses an unknown default provider, naming its source and the nearest id", async () => {
    await expect(resolverFor("antropic")()).rejects.toMatchObject({
      code: "provider_unknown",
      suggestion: "anthropic",
      message: expect.stringMatching(
        /^Unknown provider 'antropic' \(from --provider\)\. Did you mean 'anthropic'\?/,
      ),
    });
    // A model naming its provider does not use the default, so the bad default is not in the way.
    await expect(resolverFor("antropic")("anthropic/claude-x")).resolves.toMatchObject({
      providerId: "anthropic",
      modelId: "claude-x",
    });
  });

  it("refuses `x/model` with an unknown x when the default provider's ids have no slash", async () => {
    await expect(resolverFor("openai")("antropic/claude-x")).rejects.toMatchObject({
      code: "provider_unknown",
      message: expect.stringContaining("Did you mean 'anthropic/claude-x'?"),
    });
  });

  it("passes `x/model` through as a model id to providers whose ids have slashes, and to your own", async () => {
    await expect(resolverFor("openrouter")("meta-llama/llama-4")).resolves.toMatchObject({
      providerId: "openrouter",
      modelId: "meta-llama/llama-4",
    });
    const custom = resolverFor("mine", { mine: { base_url: "http://127.0.0.1:9/v1", api_key: "k" } });
    await expect(custom("org/model-7b")).resolves.toMatchObject({
      providerId: "mine",
      modelId: "org/model-7b",
    });
  });
});
