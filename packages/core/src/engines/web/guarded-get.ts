import { lookup } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { type Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { errorMessage, proxyAgentFor, proxyForUrl } from "@nyzhi/config";
import { blockedAddressReason } from "./blocked-addresses.js";
import { hostAllowed, type WebAccessSettings } from "./web-access.js";
import { WebGuardError } from "./web-guard-error.js";

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A URL whose host resolves to an address the user has not allowed (loopback, private, metadata …). */
export class BlockedAddressError extends WebGuardError {}

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
 * followed by hand, at most MAX_REDIRECTS, each hop checked the same way. Behind a proxy
 * (`HTTPS_PROXY` / `HTTP_PROXY`, not for hosts in `NO_PROXY`) the request goes through it, after
 * the same check of the target's addresses (see checkAddresses).
 */
export async function guardedGet(start: URL, options: GuardedGetOptions): Promise<GuardedResponse> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(url, options, hop === 0 ? undefined : start);
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || !location) return shaped(url, response);
    response.destroy();
    if (hop === MAX_REDIRECTS) {
      throw new WebGuardError(`web_fetch gave up on ${start.href}: more than ${MAX_REDIRECTS} redirects`);
    }
    const next = new URL(location, url);
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      throw new WebGuardError(`web_fetch refused the redirect from ${url.href} to ${next.href}: not http(s)`);
    }
    url = next;
  }
}

async function requestOnce(
  url: URL,
  options: GuardedGetOptions,
  redirectedFrom: URL | undefined,
): Promise<IncomingMessage> {
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
    if (reason) throw refuse(literal, reason);
  }
  const proxyAgent = proxyAgentFor(url);
  if (proxyAgent) {
    // The proxy opens the connection (the proxy itself may be private: it is the user's own), so
    // the target's addresses are checked here, before the request is handed to it.
    if (!permitted && !isIP(literal)) await checkAddresses(url, literal, refuse);
    return send(url, options, { agent: await proxyAgent }).catch((error: unknown) => {
      if (options.signal.aborted) throw error;
      throw new WebGuardError(
        `web_fetch could not reach ${url.host} through the proxy ${proxyName(url)}: ${errorMessage(error)}`,
        { cause: error },
      );
    });
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
  return send(url, options, { lookup: checkedLookup });
}

/**
 * Resolves the target as the proxy will and refuses it if any address is not public. The proxy
 * resolves the name again when it connects, so a name whose answer changes between the two
 * lookups (DNS rebinding) is not caught here as it is on a direct connection (docs/security.md).
 */
async function checkAddresses(
  url: URL,
  host: string,
  refuse: (address: string, reason: string) => BlockedAddressError,
): Promise<void> {
  let addresses: { address: string }[];
  try {
    addresses = await dnsLookup(host, { all: true });
  } catch (error) {
    throw new WebGuardError(
      `web_fetch could not check the address of ${url.host} before sending it to the proxy ` +
        `${proxyName(url)}: ${errorMessage(error)}. Where only the proxy can resolve names, add ` +
        `"${url.host}" to web.allow_hosts in config.toml.`,
      { cause: error },
    );
  }
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) throw refuse(address, reason);
  }
}

function send(
  url: URL,
  options: GuardedGetOptions,
  connection: { agent: Agent } | { lookup: LookupFunction },
): Promise<IncomingMessage> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(url, {
      method: "GET",
      headers: { ...options.headers, "accept-encoding": "gzip, deflate, br" },
      ...connection,
      signal: options.signal,
    });
    outgoing.on("response", resolve);
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** The proxy for `url` as the user set it, without credentials, and the variable it came from. */
function proxyName(url: URL): string {
  const proxy = proxyForUrl(url);
  const variable = url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY";
  return `${proxy ? `${proxy.protocol}//${proxy.host}` : "?"} (from ${variable})`;
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
