import { describe, expect, it } from "vitest";
import { errorFromHttpStatus, extractErrorMessage } from "./error-from-http-status.js";
import { parseRetryAfter, parseRetryAfterValue } from "./parse-retry-after.js";
import { AuthError, RateLimitError } from "./provider-error.js";

const headers = (values: Record<string, string>) => new Headers(values);

describe("parseRetryAfter", () => {
  it("reads seconds, fractional seconds and HTTP dates", () => {
    expect(parseRetryAfterValue("1")).toBe(1000);
    expect(parseRetryAfterValue("1.5")).toBe(1500);
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(parseRetryAfterValue("Wed, 21 Oct 2015 07:28:03 GMT", now)).toBe(3000);
    expect(parseRetryAfterValue("Wed, 21 Oct 2015 07:27:00 GMT", now)).toBe(0);
    expect(parseRetryAfterValue("soon")).toBeUndefined();
    expect(parseRetryAfterValue(null)).toBeUndefined();
  });

  it("prefers retry-after-ms", () => {
    expect(parseRetryAfter(headers({ "retry-after": "2", "retry-after-ms": "250" }))).toBe(250);
    expect(parseRetryAfter(headers({ "retry-after": "2" }))).toBe(2000);
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });
});

describe("errorFromHttpStatus", () => {
  it("maps 401 to an AuthError that names the env var and nyz login", () => {
    const error = errorFromHttpStatus({
      providerId: "deepseek",
      status: 401,
      body: { error: { message: "Authentication Fails" } },
      credential: {
        type: "api-key",
        providerId: "deepseek",
        key: "k",
        source: "env",
        envVar: "DEEPSEEK_API_KEY",
      },
    });
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe(
      "DeepSeek rejected the API key from DEEPSEEK_API_KEY (401: Authentication Fails). Set DEEPSEEK_API_KEY to a valid key, or run `nyz login deepseek`.",
    );
    const oauth = errorFromHttpStatus({
      providerId: "anthropic",
      status: 401,
      body: "expired",
      credential: { type: "oauth", providerId: "anthropic", accessToken: "t", source: "store" },
    });
    expect(oauth.message).toBe(
      "Anthropic rejected the OAuth token (401: expired). Run `nyz login anthropic` to sign in again, or set ANTHROPIC_API_KEY.",
    );
  });

  it("maps 429 with Retry-After, 5xx, context overflow and other 4xx", () => {
    const limited = errorFromHttpStatus({
      providerId: "groq",
      status: 429,
      body: "",
      headers: headers({ "retry-after": "3" }),
    });
    expect(limited).toBeInstanceOf(RateLimitError);
    expect([limited.retryAfterMs, limited.retryable]).toEqual([3000, true]);
    const server = errorFromHttpStatus({ providerId: "groq", status: 529, body: { message: "overloaded" } });
    expect([server.code, server.retryable, server.status]).toEqual(["server_error", true, 529]);
    const overflow = errorFromHttpStatus({
      providerId: "openai",
      status: 400,
      body: { error: { message: "This model's maximum context length is 128000 tokens" } },
    });
    expect([overflow.code, overflow.retryable]).toEqual(["context_overflow", false]);
    expect(errorFromHttpStatus({ providerId: "openai", status: 404, body: "nope" }).code).toBe(
      "invalid_request",
    );
  });
});

describe("extractErrorMessage", () => {
  it("takes error.message, message, error, or the truncated body", () => {
    expect(extractErrorMessage({ error: { message: "a" } })).toBe("a");
    expect(extractErrorMessage({ message: "b" })).toBe("b");
    expect(extractErrorMessage({ error: "c" })).toBe("c");
    expect(extractErrorMessage('{"error":{"message":"d"}}')).toBe("d");
    expect(extractErrorMessage(`  ${"é".repeat(250)}  `)).toBe(`${"é".repeat(200)}...`);
  });
});
