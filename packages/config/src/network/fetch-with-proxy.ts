import { proxyForUrl } from "./proxy-for-url.js";

/** Structural type of undici's ProxyAgent, kept here so this module's types never load undici. */
type Dispatcher = object;

/** One undici ProxyAgent per proxy URL, kept for the process (its connections are pooled). */
const dispatchers = new Map<string, Promise<Dispatcher>>();

/**
 * Node's built-in `fetch` that honours `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` (see
 * proxyForUrl): a proxied request gets an undici `ProxyAgent` as its `dispatcher`, which tunnels
 * it with `CONNECT`; any other request is the built-in fetch unchanged. For callers that need the
 * standard fetch (OAuth, MCP over HTTP, remote embedders); the model adapters use nodeHttpFetch.
 * `undici` (the package, 6.x: the line Node 20's fetch is built on) loads only for the first
 * proxied request. TLS uses Node's default CA store, `NODE_EXTRA_CA_CERTS` included.
 */
export const fetchWithProxy: typeof globalThis.fetch = async (input, init) => {
  const target = targetOf(input);
  const proxy = target === undefined ? undefined : proxyForUrl(target);
  if (proxy === undefined) return globalThis.fetch(input, init);
  const dispatcher = await dispatcherFor(proxy);
  return globalThis.fetch(input, { ...init, dispatcher } as RequestInit);
};

function targetOf(input: Parameters<typeof globalThis.fetch>[0]): URL | undefined {
  if (input instanceof URL) return input;
  const href = typeof input === "string" ? input : input.url;
  try {
    return new URL(href);
  } catch {
    return undefined; // fetch itself reports the bad URL
  }
}

function dispatcherFor(proxy: URL): Promise<Dispatcher> {
  let dispatcher = dispatchers.get(proxy.href);
  if (dispatcher === undefined) {
    dispatcher = import("undici").then(({ ProxyAgent }) => new ProxyAgent(proxy.href));
    dispatchers.set(proxy.href, dispatcher);
    dispatcher.catch(() => dispatchers.delete(proxy.href));
  }
  return dispatcher;
}
