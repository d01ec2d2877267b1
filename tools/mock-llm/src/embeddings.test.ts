import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockLlm, mockEmbeddingTokens, startMockLlm } from "./index.js";

let mock: MockLlm;
let client: OpenAI;

beforeEach(async () => {
  mock = await startMockLlm({ scenario: { rules: [] } });
  client = new OpenAI({ apiKey: "test", baseURL: `${mock.url}/v1`, maxRetries: 0, logLevel: "off" });
});

afterEach(async () => {
  await mock.close();
});

const cosine = (left: number[], right: number[]) =>
  left.reduce((sum, value, position) => sum + value * (right[position] ?? 0), 0);

describe("OpenAI embeddings", () => {
  it("answers with one unit vector per text at the model's length, billing a quarter of the length", async () => {
    const input = ["function computeInvoiceTotal(lines)", "invoice total", "startOfWeek(day)"];
    const response = await client.embeddings.create({
      model: "text-embedding-3-small",
      input,
      encoding_format: "float",
    });
    expect(response.data.map((entry) => [entry.index, entry.embedding.length])).toEqual([
      [0, 1536],
      [1, 1536],
      [2, 1536],
    ]);
    const [invoice, query, week] = response.data.map((entry) => entry.embedding);
    expect(cosine(invoice!, invoice!)).toBeCloseTo(1);
    expect(cosine(invoice!, query!)).toBeGreaterThan(cosine(week!, query!));
    const tokens = input.reduce((sum, text) => sum + mockEmbeddingTokens(text), 0);
    expect(response.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
    expect(mock.requests.map((request) => [request.api, request.path])).toEqual([
      ["embeddings", "/v1/embeddings"],
    ]);
  });

  it("gives the asked length to other models, and a 400 for a request without input", async () => {
    const response = await client.embeddings.create({ model: "other", input: "a b", dimensions: 8 });
    expect(response.data[0]?.embedding).toHaveLength(8);
    const refused = await fetch(`${mock.url}/v1/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "other" }),
    });
    expect(refused.status).toBe(400);
  });
});
