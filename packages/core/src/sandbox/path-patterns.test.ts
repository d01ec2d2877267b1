import { describe, expect, it } from "vitest";
import { globToRegExp } from "./glob-to-regexp.js";
import { compilePathPatterns } from "./path-patterns.js";

describe("globToRegExp", () => {
  it.each([
    ["git_*", "git_commit", true],
    ["mcp__github__*", "mcp__github__create_issue", true],
    ["mcp__github__*", "mcp__gitlab__x", false],
    ["*.pem", ".secret.pem", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["src/**/*.ts", "src/c.ts", true],
    ["src/*.ts", "src/a/c.ts", false],
    ["*.{ts,tsx}", "a.tsx", true],
    ["file?.[jt]s", "file1.js", true],
    ["[!a]*", "abc", false],
    ["a+b(c)", "a+b(c)", true],
  ])("%s on %s → %s", (glob, text, expected) => {
    expect(globToRegExp(glob).test(text)).toBe(expected);
  });
});

describe("compilePathPatterns", () => {
  const patterns = compilePathPatterns([".env", "*.key", "config/prod/**", "/etc/shadow", "build/"], ["/ws"]);
  it.each([
    ["/ws/.env", ".env"],
    ["/ws/a/b/.env", ".env"],
    ["/ws/.env/inner", ".env"],
    ["/elsewhere/.env", ".env"],
    ["/ws/certs/server.key", "*.key"],
    ["/ws/config/prod/db.toml", "config/prod/**"],
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
