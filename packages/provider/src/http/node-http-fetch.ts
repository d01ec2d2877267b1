import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import type { Agent as HttpsAgentType } from "node:https";
import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import { fetchWithProxy, markStartup, proxyAgentFor, proxyForUrl } from "@nyzhi/config";
import { watchIdle } from "./idle-watchdog.js";
import { LightHeaders } from "./light-headers.js";
import { LightResponse } from "./light-response.js";
import { abortReason, nodeBody, terminated } from "./node-body.js";

/**
 * `fetch` for the provider adapters over `node:http`/`node:https` instead of Node's built-in
 * (undici) client. Why: undici parses HTTP with a WebAssembly build of llhttp that V8 compiles
 * twice — once at the first request and again, optimised, on a background thread that the process
 * must wait for before it can exit. For a short `nyz exec` that is most of a 100 ms tail after the
 * last output; `node:http` uses the llhttp compiled into Node itself. Both vendor SDKs take a
 * `fetch` option, so this is a drop-in: the Response interface (a LightResponse, which does not load
 * undici either), same abort and error shapes
 * (`AbortError` for a cancelled request, `TypeError("fetch failed", { cause })` for a network
 * failure). Keep-alive sockets are reused across the turns of a session and never keep the
 * process alive.
 *
 * Behind a proxy (`HTTPS_PROXY` / `HTTP_PROXY`, minus the hosts in `NO_PROXY`) each request gets
 * the proxy's keep-alive agent (see proxyAgentFor), chosen per request and per redirect hop.
 *
 * Anything it does not handle itself — a `Request` object as input, or a streamed / `FormData` /
 * `Blob` body — goes to the built-in fetch (through the same proxy: fetchWithProxy).
 */
export const nodeHttpFetch: typeof globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const body = url === undefined ? undefined : encodeBody(init?.body);
  if (url === undefined || body === UNSUPPORTED) return fetchWithProxy(input, init);
  markStartup("http request");
  return send(new URL(url), { ...init, body }, 0);
};

const UNSUPPORTED = Symbol("unsupported body");
const MAX_REDIRECTS = 20;
const IDLE_TIMEOUT_MS = 300_000;
/** Not sent on to another origin after a redirect. */
const CREDENTIAL_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-api-key",
  "x-goog-api-key",
  "api-key",
]);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

interface PreparedInit extends Omit<RequestInit, "body"> {
  /** A string is sent as UTF-8, written straight to the socket (no intermediate Buffer copy). */
  body: Buffer | string | undefined;
}

function encodeBody(body: RequestInit["body"] | undefined): Buffer | string | undefined | typeof UNSUPPORTED {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return UNSUPPORTED;
}

async function send(url: URL, init: PreparedInit, redirects: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("fetch failed", { cause: new Error(`unsupported protocol ${url.protocol}`) });
  }
  const method = (init.method ?? "GET").toUpperCase();
  const headers = requestHeaders(init, url);
  const request = url.protocol === "https:" ? (await https()).request : httpRequest;
  const proxyAgent = proxyAgentFor(url);
  const agent = proxyAgent ? await proxyAgent : url.protocol === "https:" ? (await https()).agent : httpAgent;

  const message = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent });
    const onAbort = () => {
      outgoing.destroy();
      reject(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    // No bytes either way for this long: the connection is given up (undici's default, too).
    // Once the response has begun, the body is ended with the watchdog's error, so a reader sees
    // `TypeError: terminated` with that error as its cause.
    let response: IncomingMessage | undefined;
    const stopWatching = watchIdle(
      {
        get socket() {
          return outgoing.socket;
        },
        destroy: (error) => (response ?? outgoing).destroy(error),
      },
      IDLE_TIMEOUT_MS,
      `no data from the server for ${IDLE_TIMEOUT_MS / 1000} s`,
    );
    outgoing.on("response", (incoming) => {
      response = incoming;
      signal?.removeEventListener("abort", onAbort);
      incoming.once("end", stopWatching);
      incoming.once("close", stopWatching);
      resolve(incoming);
    });
    outgoing.on("error", (error) => {
      stopWatching();
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(abortReason(signal));
      const cause = proxyAgent ? throughProxy(error, url) : error;
      reject(new TypeError("fetch failed", { cause }));
    });
    if (typeof init.body === "string") outgoing.end(init.body, "utf8");
    else outgoing.end(init.body);
  });

  const status = message.statusCode ?? 0;
  if (status < 200 || status > 599) {
    message.destroy();
    throw new TypeError("fetch failed", { cause: new Error(`unexpected HTTP status ${status}`) });
  }
  const location = message.headers.location;
  if (location && status >= 300 && status < 400 && status !== 304 && init.redirect !== "manual") {
    message.resume();
    if (init.redirect === "error")
      throw new TypeError("fetch failed", { cause: new Error("unexpected redirect") });
    if (redirects >= MAX_REDIRECTS)
      throw new TypeError("fetch failed", { cause: new Error("redirect count exceeded") });
    const next = new URL(location, url);
    const toGet = status === 303 || ((status === 301 || status === 302) && method === "POST");
    const crossOrigin = next.origin !== url.origin;
    return send(
      next,
      {
        ...init,
        ...(toGet ? { method: "GET", body: undefined } : {}),
        headers: redirectHeaders(init.headers, { dropBody: toGet, dropAuth: crossOrigin }),
      },
      redirects + 1,
    );
  }

  const responseBody =
    NULL_BODY_STATUSES.has(status) || method === "HEAD" ? null : nodeBody(decoded(message), signal);
  if (responseBody === null) message.resume();
  return new LightResponse(responseBody, {
    status,
    statusText: message.statusMessage ?? "",
    headers: responseHeaders(message),
    url: url.href,
    redirected: redirects > 0,
  });
}

/** A connection failure through a proxy names the proxy and where it came from. */
function throughProxy(error: Error, url: URL): Error {
  const proxy = proxyForUrl(url);
  const where = proxy ? `${proxy.protocol}//${proxy.host}` : "the proxy";
  const variable = url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY";
  return Object.assign(new Error(`${error.message}, through ${where} (from ${variable})`), {
    code: (error as { code?: unknown }).code,
  });
}

function requestHeaders(init: PreparedInit, url: URL): OutgoingHttpHeaders {
  const headers: Record<string, string> = {};
  for (const [name, value] of headerEntries(init.headers)) {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  }
  headers.accept ??= "*/*";
  headers["accept-encoding"] ??= "gzip, deflate, br";
  headers["user-agent"] ??= "node";
  headers.host ??= url.host;
  if (init.body !== undefined) {
    const length =
      typeof init.body === "string" ? Buffer.byteLength(init.body, "utf8") : init.body.byteLength;
    headers["content-length"] = String(length);
  }
  return headers;
}

function headerEntries(headers: RequestInit["headers"] | undefined): [string, string][] {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.map(([name, value]) => [String(name), String(value)]);
  if (typeof (headers as Headers).forEach === "function" && typeof (headers as Headers).get === "function") {
    const entries: [string, string][] = [];
    (headers as Headers).forEach((value, name) => {
      entries.push([name, value]);
    });
    return entries;
  }
  return Object.entries(headers as Record<string, string>).map(([name, value]) => [name, String(value)]);
}

function redirectHeaders(
  headers: RequestInit["headers"] | undefined,
  drop: { dropBody: boolean; dropAuth: boolean },
): [string, string][] {
  return headerEntries(headers).filter(([name]) => {
    const key = name.toLowerCase();
    if (key === "host") return false;
    if (drop.dropBody && (key === "content-type" || key === "content-length")) return false;
    if (drop.dropAuth && CREDENTIAL_HEADERS.has(key)) return false;
    return true;
  });
}

function responseHeaders(message: IncomingMessage): LightHeaders {
  const headers = new LightHeaders();
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index] as string, raw[index + 1] as string);
    } catch {
      // Node's parser already refuses malformed headers; one that still fails the checks is dropped.
    }
  }
  return headers;
}

/** Undoes `Content-Encoding` the way `fetch` does. */
function decoded(message: IncomingMessage): Readable {
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "deflate" && encoding !== "br")
    return message;
  // zlib loads only for a compressed response (the model APIs stream uncompressed SSE).
  const zlib = createRequire(import.meta.url)("node:zlib") as typeof import("node:zlib");
  const decoder =
    encoding === "br"
      ? zlib.createBrotliDecompress()
      : encoding === "deflate"
        ? zlib.createInflate()
        : zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  message.on("error", (error) => decoder.destroy(error));
  message.on("close", () => {
    if (!message.complete) decoder.destroy(terminated());
  });
  // Ending the body early (abort, cancel, a decoding error) must release the connection too.
  decoder.on("close", () => message.destroy());
  return message.pipe(decoder);
}

let httpsModule: Promise<{ request: typeof httpRequest; agent: HttpsAgentType }> | undefined;

/** `node:https` (and with it TLS) is loaded on the first https request, not at start-up. */
function https(): Promise<{ request: typeof httpRequest; agent: HttpsAgentType }> {
  httpsModule ??= import("node:https").then((module) => ({
    request: module.request as unknown as typeof httpRequest,
    agent: new module.Agent({ keepAlive: true }),
  }));
  return httpsModule;
}

const httpAgent = new HttpAgent({ keepAlive: true });
