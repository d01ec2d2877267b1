/**
 * How long a `Retry-After` header asks us to wait, in ms: either delay-seconds (`"1"`, `"1.5"`)
 * or an HTTP date (`"Wed, 21 Oct 2015 07:28:00 GMT"`). `undefined` when absent or unparsable.
 * A `retry-after-ms` header (OpenAI) wins when both are present.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  return parseRetryAfterValue(headers.get("retry-after"), now);
}

/** Parses one `Retry-After` value (seconds or HTTP date) into ms. */
export function parseRetryAfterValue(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
