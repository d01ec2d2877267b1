import type { Agent } from "node:http";
import { type ProxyEnvironment, proxyForUrl } from "./proxy-for-url.js";

/** One agent per target scheme and proxy URL, kept for the process: its sockets are reused. */
const agents = new Map<string, Promise<Agent>>();

/**
 * The `node:http` / `node:https` agent that sends a request for `target` through the proxy the
 * environment names (see proxyForUrl), or undefined when the request goes straight to `target`.
 * https targets are tunnelled with `CONNECT` (`https-proxy-agent`: TLS runs end to end, against
 * Node's default CA store, which includes `NODE_EXTRA_CA_CERTS`); http targets are sent to the
 * proxy as absolute-URI requests (`http-proxy-agent`). Credentials in the proxy URL
 * (`http://user:pass@proxy:8080`) become `Proxy-Authorization: Basic`. The agents keep their
 * connections alive like nyzhi's direct ones, and their packages load on the first proxied
 * request, so a run without a proxy variable never reads them.
 */
export function proxyAgentFor(target: URL, env: ProxyEnvironment = process.env): Promise<Agent> | undefined {
  const proxy = proxyForUrl(target, env);
  if (proxy === undefined) return undefined;
  const key = `${target.protocol} ${proxy.href}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    agent = createAgent(target.protocol, proxy);
    agents.set(key, agent);
    // A failed load is not cached: the next request tries again.
    agent.catch(() => agents.delete(key));
  }
  return agent;
}

async function createAgent(protocol: string, proxy: URL): Promise<Agent> {
  if (protocol === "https:") {
    const { HttpsProxyAgent } = await import("https-proxy-agent");
    return new HttpsProxyAgent(proxy, { keepAlive: true });
  }
  const { HttpProxyAgent } = await import("http-proxy-agent");
  return new HttpProxyAgent(proxy, { keepAlive: true });
}
