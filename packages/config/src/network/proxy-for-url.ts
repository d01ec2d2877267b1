import { BlockList, isIP } from "node:net";
import { NyzhiError } from "../base/errors.js";

/** The variables read: `process.env` unless a test or host passes its own. */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** A proxy variable nyzhi cannot use; the message names the variable and its value. */
export class ProxyConfigError extends NyzhiError {
  /** The environment variable to fix, e.g. `HTTPS_PROXY`. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super("proxy_invalid", message);
    this.variable = variable;
  }
}

/**
 * The proxy a request to `target` goes through, from the environment as curl reads it:
 * `https_proxy` / `HTTPS_PROXY` for https targets, `http_proxy` / `HTTP_PROXY` for http ones (the
 * lower-case name wins when both are set; an empty value counts as unset), unless `no_proxy` /
 * `NO_PROXY` names the host. A proxy without a scheme is `http://`. Undefined: connect directly.
 *
 * `NO_PROXY` is a comma- or space-separated list of
 * - `*`: no proxy for any host;
 * - a domain (`example.com`, `.example.com`, `*.example.com`): that host and every subdomain;
 * - an IP address (`10.1.2.3`, `::1`, `[::1]`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`);
 * each optionally with `:port`, which then must match the target's port (80/443 by default).
 * Names are compared case-insensitively and literally: no DNS lookup, so `localhost` does not
 * cover `127.0.0.1`.
 */
export function proxyForUrl(target: URL, env: ProxyEnvironment = process.env): URL | undefined {
  const scheme = target.protocol === "https:" ? "https" : target.protocol === "http:" ? "http" : undefined;
  if (scheme === undefined) return undefined;
  const proxy = readVariable(env, `${scheme}_proxy`);
  if (proxy === undefined) return undefined;
  if (bypassesProxy(target, readVariable(env, "no_proxy")?.value ?? "")) return undefined;
  return parseProxyUrl(proxy.name, proxy.value);
}

function readVariable(env: ProxyEnvironment, lowerName: string): { name: string; value: string } | undefined {
  for (const name of [lowerName, lowerName.toUpperCase()]) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function parseProxyUrl(variable: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new ProxyConfigError(
      variable,
      `${variable}=${value} is not a proxy URL; set it to http://host:port (or unset it).`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ProxyConfigError(
      variable,
      `${variable}=${value}: only http:// and https:// proxies are supported, not ${url.protocol}//.`,
    );
  }
  return url;
}

function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  const port = Number(target.port) || (target.protocol === "https:" ? 443 : 80);
  for (const entry of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (entry === "") continue;
    if (entry === "*") return true;
    const { name, port: entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (matchesHost(host, name)) return true;
  }
  return false;
}

/** `host:port`, `[v6]:port`, `[v6]`, a bare IPv6 address or a CIDR range. */
function splitPort(entry: string): { name: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return withPort(bracketed[1] as string, bracketed[2]);
  if (isIP(entry) === 6 || entry.split(":").length > 2) return { name: entry };
  const hostPort = /^(.*):(\d+)$/.exec(entry);
  return hostPort ? withPort(hostPort[1] as string, hostPort[2]) : { name: entry };
}

function withPort(name: string, port: string | undefined): { name: string; port?: number } {
  return port === undefined ? { name } : { name, port: Number(port) };
}

function matchesHost(host: string, name: string): boolean {
  const hostFamily = isIP(host);
  const slash = name.indexOf("/");
  if (slash !== -1) {
    const base = name.slice(0, slash);
    const bits = Number(name.slice(slash + 1));
    const family = isIP(base);
    if (family === 0 || family !== hostFamily || !Number.isInteger(bits)) return false;
    const range = new BlockList();
    const type = family === 4 ? "ipv4" : "ipv6";
    try {
      range.addSubnet(base, bits, type);
    } catch {
      return false;
    }
    return range.check(host, type);
  }
  const family = isIP(name);
  if (family !== 0) {
    if (family !== hostFamily) return false;
    const address = new BlockList();
    address.addAddress(name, family === 4 ? "ipv4" : "ipv6");
    return address.check(host, family === 4 ? "ipv4" : "ipv6");
  }
  const domain = name.replace(/^\*?\./, "").replace(/\.$/, "");
  return domain !== "" && (host === domain || host.endsWith(`.${domain}`));
}
