import type { Credential } from "@nyzhi/auth";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createLanguageModel } from "../factory/create-language-model.js";
import { collectStream } from "../stream/collect-stream.js";
import { withRetry } from "./with-retry.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };

const cases = [
  { providerId: "anthropic", path: "", header: "x-api-key", value: (key: string) => key },
  { providerId: "openai", path: "/v1", header: "authorization", value: (key: string) => `Bearer ${key}` },
];

describe.each(cases)("credential rotation on 429 ($providerId)", ({ providerId, path, header, value }) => {
  let mock: MockLlm;
  const credential = (key: string): Credential => ({
    type: "api-key",
    providerId,
    key,
    source: "store",
    account: key,
  });

  beforeAll(async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            name: "first account limited",
            match: { header: { [header]: "key-one" } },
            response: { fault: { type: "status", status: 429, retryAfter: 30 } },
          },
          { name: "ok", response: { text: "hello from two" } },
        ],
      },
    });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
  });

  it("retries through the credential onRateLimited returns, without waiting out Retry-After", async () => {
    const build = (next: Credential) =>
      createLanguageModel({ providerId, modelId: "m", credential: next, baseUrl: `${mock.url}${path}` });
    const onRateLimited = vi.fn(async () => credential("key-two"));
    const model = withRetry(build(credential("key-one")), {
      credential: credential("key-one"),
      createModel: build,
      onRateLimited,
    });
    const started = Date.now();
    const response = await collectStream(model.doStream(request));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.text).toBe("hello from two");
    expect(onRateLimited).toHaveBeenCalledWith(credential("key-one"), 30_000);
    expect(mock.requests.map((recorded) => recorded.headers[header])).toEqual([
      value("key-one"),
      value("key-two"),
    ]);
  });
});
