import { describe, expect, it } from "vitest";
import { hostAllowed, webAccessOf } from "./web-access.js";

describe("hostAllowed", () => {
  const allowed = (url: string, hosts: string[]) => hostAllowed(new URL(url), hosts);

  it("matches a host name or IP on any port", () => {
    expect(allowed("http://localhost:3000/x", ["localhost"])).toBe(true);
    expect(allowed("http://LocalHost/x", ["localhost"])).toBe(true);
    expect(allowed("http://127.0.0.1:9/x", ["127.0.0.1"])).toBe(true);
    expect(allowed("http://127.0.0.1:9/x", ["localhost"])).toBe(false);
  });

  it("matches host:port on that port only (80 and 443 by default)", () => {
    expect(allowed("http://localhost:3000/", ["localhost:3000"])).toBe(true);
    expect(allowed("http://localhost:3001/", ["localhost:3000"])).toBe(false);
    expect(allowed("http://docs.internal/", ["docs.internal:80"])).toBe(true);
    expect(allowed("https://docs.internal/", ["docs.internal:80"])).toBe(false);
  });

  it("matches IPv6 entries with or without brackets and port", () => {
    expect(allowed("http://[::1]:8080/", ["::1"])).toBe(true);
    expect(allowed("http://[::1]:8080/", ["[::1]:8080"])).toBe(true);
    expect(allowed("http://[::1]:8081/", ["[::1]:8080"])).toBe(false);
  });

  it("matches *.suffix for hosts under a domain, and tolerates a scheme and path", () => {
    expect(allowed("http://a.corp.example/", ["*.corp.example"])).toBe(true);
    expect(allowed("http://corp.example/", ["*.corp.example"])).toBe(false);
    expect(allowed("http://evilcorp.example/", ["*.corp.example"])).toBe(false);
    expect(allowed("http://docs.internal:8080/a", ["http://docs.internal:8080/"])).toBe(true);
  });
});

describe("webAccessOf", () => {
  it("is strict without the service and refuses a malformed one", () => {
    expect(webAccessOf({ services: {} })).toEqual({ allowPrivate: false, allowHosts: [] });
    expect(() => webAccessOf({ services: { webAccess: { allowPrivate: "yes" } } })).toThrow(
      "context.services.webAccess must be",
    );
  });
});
