import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileCredentialStore, upsertAccount } from "@nyzhi/auth";
import { defaultConfig } from "@nyzhi/config";
import { type MockLlm, startMockLlm, startTestProxy, type TestProxy } from "@nyzhi/mock-llm";
import { collectStream } from "@nyzhi/provider";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createModelResolver } from "./model-resolver.js";

// An OAuth token refresh (the built-in fetch, through undici's ProxyAgent) and the model requests
// around it (nodeHttpFetch, through http-proxy-agent) behind HTTP_PROXY, and past it for NO_PROXY.

let mock: MockLlm;
let proxy: TestProxy;
let tokenServer: Server;
let tokenUrl: string;
let tokenRequests: number;
let storeDir: string;

beforeEach(async () => {
  mock = await startMockLlm({
    scenario: {
      rules: [
        {
          match: { header: { authorization: "Bearer access-old" } },
          response: { fault: { type: "status", status: 401 } },
        },
        { response: { text: "hello again" } },
      ],
    },
  });
  proxy = await startTestProxy();
  tokenRequests = 0;
  tokenServer = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      tokenRequests++;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ access_token: "access-new", refresh_token: "refresh-new", expires_in: 3600 }),
      );
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, "127.0.0.1", resolve));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
  storeDir = await mkdtemp(join(tmpdir(), "nyzhi-resolver-proxy-"));
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"]) {
    vi.stubEnv(name, "");
  }
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await mock.close();
  await proxy.close();
  tokenServer.closeAllConnections();
  await new Promise((resolve) => tokenServer.close(resolve));
  await rm(storeDir, { recursive: true, force: true });
});

/** A stored OAuth token the mock rejects, so the first request forces a refresh. */
async function answerWithRefresh(): Promise<string | undefined> {
  const store = createFileCredentialStore(join(storeDir, "auth.json"));
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
  expect(tokenRequests).toBe(1);
  return response.text;
}

describe("model requests and OAuth refresh behind a proxy", () => {
  it("send both through HTTP_PROXY", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    expect(await answerWithRefresh()).toBe("hello again");
    const tokenHost = new URL(tokenUrl).host;
    expect(proxy.requests).toEqual([
      { kind: "http", method: "POST", url: `${mock.url}/v1/chat/completions` },
      { kind: "connect", target: tokenHost },
      { kind: "http", method: "POST", url: `${mock.url}/v1/chat/completions` },
    ]);
  });

  it("send neither through it when NO_PROXY names the hosts", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    vi.stubEnv("NO_PROXY", "127.0.0.1");
    expect(await answerWithRefresh()).toBe("hello again");
    expect(proxy.requests).toEqual([]);
    expect(mock.requests).toHaveLength(2);
  });
});
