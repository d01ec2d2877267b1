/**
 * OpenAI's `POST /v1/embeddings`, answered without a model: each text becomes a deterministic
 * vector (its words hashed into buckets, normalised), so texts that share words are near each
 * other and a test's semantic search ranks like a (very) small real model would. Usage is billed
 * as `mockEmbeddingTokens` per text, so a test can tell what a client should have counted.
 */

/** Vector lengths of OpenAI's embedding models, so a client that knows them gets what it expects. */
const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};
/** Vector length for other models (when the request does not ask for one). */
const DEFAULT_DIMENSIONS = 64;

/** Tokens the mock bills for one text: a quarter of its length, at least 1. */
export function mockEmbeddingTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The response body and status for an embeddings request body. */
export function embeddingsBody(body: unknown): { status: number; body: unknown } {
  const request = (typeof body === "object" && body !== null ? body : {}) as {
    model?: unknown;
    input?: unknown;
    dimensions?: unknown;
    encoding_format?: unknown;
  };
  const input = typeof request.input === "string" ? [request.input] : request.input;
  if (!Array.isArray(input) || input.length === 0 || !input.every((text) => typeof text === "string")) {
    return invalid("`input` must be a string or a non-empty array of strings");
  }
  const model = typeof request.model === "string" ? request.model : "mock-embedding";
  const dimensions =
    typeof request.dimensions === "number" && Number.isInteger(request.dimensions) && request.dimensions > 0
      ? request.dimensions
      : (KNOWN_DIMENSIONS[model] ?? DEFAULT_DIMENSIONS);
  const tokens = input.reduce((sum: number, text: string) => sum + mockEmbeddingTokens(text), 0);
  return {
    status: 200,
    body: {
      object: "list",
      data: input.map((text: string, index) => {
        const vector = hashedVector(text, dimensions);
        // `base64`: little-endian float32s, what the OpenAI SDK asks for when not told otherwise.
        const embedding =
          request.encoding_format === "base64"
            ? Buffer.from(new Float32Array(vector).buffer).toString("base64")
            : vector;
        return { object: "embedding", index, embedding };
      }),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

function invalid(message: string): { status: number; body: unknown } {
  return {
    status: 400,
    body: { error: { message: `mock-llm: ${message}`, type: "invalid_request_error", param: "input" } },
  };
}

/** Words (identifiers split at case changes too) hashed into `dimensions` buckets, unit length. */
function hashedVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
  for (const word of words) {
    let hash = 2166136261;
    for (let position = 0; position < word.length; position++) {
      hash = Math.imul(hash ^ word.charCodeAt(position), 16777619);
    }
    const bucket = (hash >>> 0) % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + 1;
  }
  const length = Math.hypot(...vector);
  // A text without words still gets a vector (some stores refuse all-zero ones).
  if (length === 0) return vector.map((_, position) => (position === 0 ? 1 : 0));
  return vector.map((value) => value / length);
}
