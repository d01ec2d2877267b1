import { describe, expect, it } from "vitest";
import { ProxyConfigError, proxyForUrl } from "./proxy-for-url.js";

const proxyOf = (target: string, env: Record<string, string>) => proxyForUrl(new URL(target), env)?.href;

describe("proxyForUrl", () => {
  it("takes HTTPS_PROXY for https targets and HTTP_PROXY for http ones, lower-case first", () => {
    const env = { HTTPS_PROXY: "http://secure:3128", HTTP_PROXY: "http://plain:3128" };
    expect(proxyOf("https://api.example.com/v1", env)).toBe("http://secure:3128/");
    expect(proxyOf("http://api.example.com/v1", env)).toBe("http://plain:3128/");
    expect(proxyOf("https://x.test/", { ...env, https_proxy: "http://lower:1" })).toBe("http://lower:1/");
    expect(proxyOf("https://x.test/", { https_proxy: "", HTTPS_PROXY: "http://upper:1" })).toBe(
      "http://upper:1/",
    );
    expect(proxyOf("https://x.test/", { HTTP_PROXY: "http://plain:3128" })).toBeUndefined();
    expect(proxyOf("ftp://x.test/", { HTTP_PROXY: "http://plain:3128" })).toBeUndefined();
    expect(proxyOf("https://x.test/", {})).toBeUndefined();
  });

  it("reads a proxy without a scheme as http://, keeps credentials, and refuses other schemes by name", () => {
    expect(proxyOf("https://x.test/", { HTTPS_PROXY: "proxy.corp:8080" })).toBe("http://proxy.corp:8080/");
    expect(proxyOf("https://x.test/", { HTTPS_PROXY: "https://user:p%40ss@proxy.corp" })).toBe(
      "https://user:p%40ss@proxy.corp/",
    );
    expect(() => proxyOf("https://x.test/", { https_proxy: "socks5://proxy:1080" })).toThrow(
      new ProxyConfigError(
        "https_proxy",
        "https_proxy=socks5://proxy:1080: only http:// and https:// proxies are supported, not socks5://.",
      ),
    );
    expect(() => proxyOf("https://x.test/", { HTTPS_PROXY: "http://[bad" })).toThrow(
      /HTTPS_PROXY=http:\/\/\[bad/,
    );
  });

  it("skips the proxy for hosts NO_PROXY names: suffixes, *, ports, IPs and ranges", () => {
    const through = (target: string, noProxy: string) =>
      proxyOf(target, { HTTPS_PROXY: "http://p:1", HTTP_PROXY: "http://p:1", NO_PROXY: noProxy }) !==
      undefined;
    expect(through("https://api.example.com/", "example.com")).toBe(false);
    expect(through("https://example.com/", ".example.com")).toBe(false);
    expect(through("https://a.b.example.com/", "*.example.com")).toBe(false);
    expect(through("https://API.Example.COM./", "example.com")).toBe(false);
    expect(through("https://notexample.com/", "example.com")).toBe(true);
    expect(through("https://anything.test/", "*")).toBe(false);
    expect(through("https://internal:8443/", "other, internal:8443")).toBe(false);
    expect(through("https://internal/", "internal:8443")).toBe(true);
    expect(through("http://internal/", "internal:80")).toBe(false);
    expect(through("http://127.0.0.1:9000/", "127.0.0.1")).toBe(false);
    expect(through("http://127.0.0.1:9000/", "127.0.0.1:9001")).toBe(true);
    expect(through("http://10.2.3.4/", "10.0.0.0/8")).toBe(false);
    expect(through("http://11.2.3.4/", "10.0.0.0/8")).toBe(true);
    expect(through("http://[::1]:8080/", "::1")).toBe(false);
    expect(through("http://[::1]:8080/", "[::1]:8080")).toBe(false);
    expect(through("http://[fd00::5]/", "fd00::/8")).toBe(false);
    expect(through("http://localhost/", "127.0.0.1")).toBe(true);
    expect(proxyOf("http://a.test/", { HTTP_PROXY: "http://p:1", no_proxy: "a.test", NO_PROXY: "" })).toBe(
      undefined,
    );
  });
});
