import { describe, expect, it } from "vitest";
import { compilePathPatterns } from "./path-patterns.js";

describe("compilePathPatterns", () => {
  const patterns = compilePathPatterns([".env", "*.key", "config/prod/**", "/etc/shadow", "build/"], ["/ws"]);
  it.each([
    ["/ws/.env", ".env"],
    ["/ws/a/b/.env", ".env"],
    ["/ws/.env/inner", ".env"],
    ["/elsewhere/.env", ".env"],
    ["/ws/certs/server.key", "*.key"],
    ["/ws/config/prod/db.toml", "config/prod/**"],
    // `dir/**` covers the directory itself too (picomatch, like bash's globstar).
    ["/ws/config/prod", "config/prod/**"],
    ["/ws/build/out.js", "build/"],
    ["/etc/shadow", "/etc/shadow"],
    ["/ws/.env.example", undefined],
    ["/ws/config/dev/db.toml", undefined],
    ["/other/config/prod/db.toml", undefined],
    ["/ws/src/build.ts", undefined],
  ])("%s matches %s", (path, expected) => {
    expect(patterns.match(path)).toBe(expected);
  });
});
