import { lookup } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { ToolError } from "../define-tool.js";
import { blockedAddressReason } from "./blocked-addresses.js";
import { hostAllowed, type WebAccessSettings } from "./web-access.js";

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A URL whose host resolves to an address the user has not allowed (loopback, private, metadata …). */
export class BlockedAddressError extends ToolError {}

export interface GuardedResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  statusText: string;
  headers: IncomingMessage["headers"];
  /** The body, decompressed. Destroy it when not read to the end. */
  body: Readable;
}

export interface GuardedGetOptions {
  signal: AbortSignal;
  access: WebAccessSettings;
  headers: Record<string, string>;
}

/**
 * An HTTP GET that refuses non-public addresses (see blockedAddressReason) unless `access` allows
 * the URL's host. The host is resolved once, every address it resolves to is checked, and the
 * connection goes to those checked addresses (the socket's own lookup is this check), so a name
 * that resolves differently a moment later (DNS rebinding) cannot slip past. Redirects are
 * followed by hand, at most MAX_REDIRECTS, each hop checked the same way.
 */
export async function guardedGet(start: URL, options: GuardedGetOptions): Promise<GuardedResponse> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(url, options, hop === 0 ? undefined : start);
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || !location) return shaped(url, response);
    response.destroy();
    if (hop === MAX_REDIRECTS) {
      throw new ToolError(`web_fetch gave up on ${start.href}: more than ${MAX_REDIRECTS} redirects`);
    }
    const next = new URL(location, url);
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      throw new ToolError(`web_fetch refused the redirect from ${url.href} to ${next.href}: not http(s)`);
    }
    url = next;
  }
}

function requestOnce(url: URL, options: GuardedGetOptions, redirectedFrom: URL | undefined) {
  const permitted = options.access.allowPrivate || hostAllowed(url, options.access.allowHosts);
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  const refuse = (address: string, reason: string) => {
    const what =
      address === literal ? `${literal} is ${reason}` : `${literal} resolves to ${address}, ${reason}`;
    const hop = redirectedFrom ? `the redirect from ${redirectedFrom.href} to ${url.href}` : url.href;
    return new BlockedAddressError(
      `web_fetch refused ${hop}: ${what}. To allow it, add "${url.host}" to web.allow_hosts ` +
        "(or set web.allow_private = true) in config.toml.",
    );
  };
  if (!permitted && isIP(literal)) {
    const reason = blockedAddressReason(literal);
    if (reason) return Promise.reject(refuse(literal, reason));
  }
  // The socket's own lookup: it connects only to addresses that passed the check.
  const checkedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    lookup(hostname, { all: true, family: lookupOptions.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of permitted ? [] : addresses) {
        const reason = blockedAddressReason(address);
        if (reason) return callback(refuse(address, reason), []);
      }
      const first = addresses[0];
      if (lookupOptions.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
    });
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(url, {
      method: "GET",
      headers: { ...options.headers, "accept-encoding": "gzip, deflate, br" },
      lookup: checkedLookup,
      signal: options.signal,
    });
    request.on("response", resolve);
    request.on("error", reject);
    request.end();
  });
}

function shaped(url: URL, response: IncomingMessage): GuardedResponse {
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  let body: Readable = response;
  if (decoder) {
    body = response.pipe(decoder);
    // A broken connection fails the decoded stream too; destroying it closes the connection.
    response.on("error", (error) => decoder.destroy(error));
    decoder.on("close", () => response.destroy());
  }
  return {
    url,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    headers: response.headers,
    body,
  };
}
