import type { Readable } from "node:stream";
import { z } from "zod";
import { type GuardedResponse, guardedGet } from "../../engines/web/guarded-get.js";
import { htmlToMarkdown } from "../../engines/web/html-to-markdown.js";
import { webAccessOf } from "../../engines/web/web-access.js";
import { WebGuardError } from "../../engines/web/web-guard-error.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { truncateEnd } from "../seam/truncate-text.js";

/** Default cap on the returned text, in code points. */
export const WEB_FETCH_DEFAULT_MAX_LENGTH = 50_000;
const MAX_LENGTH_LIMIT = 200_000;
/** Whole request (connect, headers, body), in ms. */
export const WEB_FETCH_TIMEOUT_MS = 30_000;
/** Bodies are read up to this many bytes; the rest is dropped. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

const inputSchema = z.lazy(() =>
  z.object({
    url: z
      .string()
      .min(1)
      .refine(
        (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
        "must be an http:// or https:// URL",
      )
      .describe("The http(s) URL to fetch."),
    max_length: z
      .number()
      .int()
      .min(100)
      .max(MAX_LENGTH_LIMIT)
      .default(WEB_FETCH_DEFAULT_MAX_LENGTH)
      .describe(`Cap on the returned text, in characters (default ${WEB_FETCH_DEFAULT_MAX_LENGTH}).`),
  }),
);

export const webFetchTool = defineShippedTool({
  name: "web_fetch",
  description:
    "Fetch a web page or text resource with an HTTP GET and return it as readable text (HTML is converted to Markdown: headings, lists, code blocks and links kept; scripts and styles dropped). Use for documentation, issues, changelogs. Cannot run JavaScript or log in. Loopback, private-network and cloud metadata addresses are refused unless the user allows them in config.",
  inputSchema,
  kind: "network",
  mutates: false,
  maxOutputChars: MAX_LENGTH_LIMIT + 1_000,
  preview: (input) => `GET ${input.url}`,
  async execute(input, context) {
    const url = new URL(input.url);
    const timeout = AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS);
    const signal = AbortSignal.any([context.signal, timeout]);
    let response: GuardedResponse;
    try {
      response = await guardedGet(url, {
        signal,
        access: webAccessOf(context),
        headers: {
          "user-agent": "nyzhi-web-fetch/0.1",
          accept: "text/html, text/plain, application/json, */*;q=0.5",
        },
      });
    } catch (error) {
      if (context.signal.aborted || error instanceof ToolError || error instanceof WebGuardError) throw error;
      throw new ToolError(
        `web_fetch could not reach ${url.host}: ${networkReason(error, timeout.aborted)} (this machine may be offline)`,
        { cause: error },
      );
    }
    const finalUrl = response.url;
    if (response.status < 200 || response.status > 299) {
      response.body.destroy();
      throw new ToolError(
        `web_fetch could not fetch ${url.host}: the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} for ${finalUrl.href}`,
      );
    }
    const contentType = String(response.headers["content-type"] ?? "");
    if (isBinary(contentType)) {
      response.body.destroy();
      throw new ToolError(
        `web_fetch got ${contentType} from ${finalUrl.href}: binary content cannot be shown as text`,
      );
    }
    let raw: string;
    try {
      raw = await readCapped(response.body, signal);
    } catch (error) {
      if (context.signal.aborted) throw error;
      throw new ToolError(
        `web_fetch could not read the answer from ${url.host}: ${networkReason(error, timeout.aborted)}`,
        { cause: error },
      );
    }
    const page = isHtml(contentType, raw)
      ? await htmlToMarkdown(raw, finalUrl)
      : { title: undefined, markdown: raw.trim() };
    const header = [`URL: ${finalUrl.href}`];
    if (page.title) header.push(`Title: ${page.title}`);
    const text = truncateEnd(
      page.markdown,
      input.max_length,
      `\n\n… [truncated at ${input.max_length} characters]`,
    );
    return { output: `${header.join("\n")}\n\n${text}`, metadata: { status: response.status, contentType } };
  },
});

function networkReason(error: unknown, timedOut: boolean): string {
  if (timedOut) return `no answer within ${WEB_FETCH_TIMEOUT_MS / 1000} s`;
  // node:http errors carry the code themselves; fetch-style errors on their cause.
  const withCode = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = withCode.code ? withCode : withCode.cause;
  switch (cause?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return `DNS lookup failed (${cause.code})`;
    case "ECONNREFUSED":
      return "connection refused (ECONNREFUSED)";
    case "ECONNRESET":
      return "connection reset (ECONNRESET)";
    case "ENETUNREACH":
    case "EHOSTUNREACH":
      return `network unreachable (${cause.code})`;
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `connection timed out (${cause.code})`;
    default:
      return cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

function isBinary(contentType: string): boolean {
  return /^(image|audio|video|font)\/|application\/(octet-stream|pdf|zip|gzip|x-tar|wasm)/i.test(contentType);
}

function isHtml(contentType: string, body: string): boolean {
  if (/html|xhtml/i.test(contentType)) return true;
  return contentType === "" && /^\s*(<!doctype html|<html)/i.test(body);
}

async function readCapped(body: Readable, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (signal.aborted) throw signal.reason;
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= MAX_BODY_BYTES) break;
    }
  } finally {
    // Releases the connection when the cap was hit; after a finished read it is a no-op.
    body.destroy();
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES));
}
