import { WebGuardError } from "./web-guard-error.js";

/**
 * What `web_fetch` may reach beyond the public internet, from config `[web]`. The runtime puts it
 * in `context.services.webAccess`; without it, every non-public address is refused.
 */
export interface WebAccessSettings {
  /** `web.allow_private`: fetch any address, loopback and cloud metadata included. */
  allowPrivate: boolean;
  /**
   * `web.allow_hosts`: hosts whose non-public addresses may be fetched. An entry is a host name or
   * IP (`localhost`, `10.0.0.5`, `::1`), optionally with a port (`localhost:3000`, `[::1]:8080`),
   * or `*.suffix` for every host under a domain. The allowance is the URL's host's only: a redirect
   * to another host is judged on its own.
   */
  allowHosts: readonly string[];
}

export const WEB_ACCESS_SERVICE = "webAccess";

/** The settings from `context.services.webAccess`, or the strict default when absent. */
export function webAccessOf(context: { services: Readonly<Record<string, unknown>> }): WebAccessSettings {
  const value = context.services[WEB_ACCESS_SERVICE];
  if (value === undefined) return { allowPrivate: false, allowHosts: [] };
  const candidate = value as Partial<WebAccessSettings>;
  if (
    typeof candidate.allowPrivate !== "boolean" ||
    !Array.isArray(candidate.allowHosts) ||
    !candidate.allowHosts.every((host) => typeof host === "string")
  ) {
    throw new WebGuardError(
      "context.services.webAccess must be { allowPrivate: boolean, allowHosts: string[] }.",
    );
  }
  return candidate as WebAccessSettings;
}

/** Whether `url`'s host (and port) is listed in `allowHosts`. */
export function hostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowHosts.some((entry) => {
    const parsed = parseHostEntry(entry);
    if (parsed.port !== undefined && parsed.port !== port) return false;
    if (parsed.host.startsWith("*.")) return host.endsWith(parsed.host.slice(1));
    return parsed.host === host;
  });
}

/** `localhost`, `localhost:3000`, `[::1]:8080`, `::1`, `http://docs.internal/` → host and port. */
function parseHostEntry(entry: string): { host: string; port?: string } {
  const text = entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/\/.*$/, "");
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return bracketed[2] ? { host: bracketed[1]!, port: bracketed[2] } : { host: bracketed[1]! };
  const withPort = /^([^:]+):(\d+)$/.exec(text);
  if (withPort) return { host: withPort[1]!, port: withPort[2]! };
  return { host: text };
}
