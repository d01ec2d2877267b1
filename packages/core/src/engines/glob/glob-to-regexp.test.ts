import { describe, expect, it } from "vitest";
import { globToRegExp } from "./glob-to-regexp.js";

describe("globToRegExp", () => {
  it.each([
    ["git_*", "git_commit", true],
    ["mcp__github__*", "mcp__github__create_issue", true],
    ["mcp__github__*", "mcp__gitlab__x", false],
    ["*.pem", ".secret.pem", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["src/**/*.ts", "src/c.ts", true],
    ["src/*.ts", "src/a/c.ts", false],
    ["src/*", "src/a/b", false],
    ["src/**", "src/a/b", true],
    ["*.{ts,tsx}", "a.tsx", true],
    ["{a,b{c,d}}", "bd", true],
    ["file?.[jt]s", "file1.js", true],
    ["a?c", "a/c", false],
    ["[ab].ts", "b.ts", true],
    ["[!ab].ts", "b.ts", false],
    ["[!ab].ts", "c.ts", true],
    ["[!a]*", "abc", false],
    ["a.b", "axb", false],
    ["a+b(c)", "a+b(c)", true],
    ["a.b+(c)", "a.b+(c)", true],
    ["a.b+(c)", "a.bc", false],
    ["@(x|y)", "@(x|y)", true],
    ["@(x|y)", "x", false],
    ["*a|b", "b", false],
    ["*a|b", "xa|b", true],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
    ["!x", "!x", true],
    ["!x", "y", false],
    ["a{b", "a{b", true],
    ["a{b", "ab", false],
    ["/etc/**", "/etc/shadow", true],
    ["$HOME_*", "$HOME_X", true],
  ])("%s on %s → %s", (glob, text, expected) => {
    expect(globToRegExp(glob).test(text)).toBe(expected);
  });

  it("ignores case when asked", () => {
    expect(globToRegExp("GIT_*", { caseInsensitive: true }).test("git_commit")).toBe(true);
    expect(globToRegExp("GIT_*").test("git_commit")).toBe(false);
    expect(globToRegExp("a{b", { caseInsensitive: true }).test("A{B")).toBe(true);
  });

  it.each([
    ["*.ts", "a/b/c.ts", true],
    ["*.ts", "c.ts", true],
    ["/*.ts", "c.ts", true],
    ["/*.ts", "a/c.ts", false],
    ["src/**/x.ts", "src/x.ts", true],
    ["src/**/x.ts", "src/a/b/x.ts", true],
    ["src/*.ts", "lib/src/a.ts", false],
    ["file[0-9].txt", "d/file7.txt", true],
    ["file[!0-9].txt", "d/file7.txt", false],
    [".github/*.yml", ".github/ci.yml", true],
  ])("reads %s on %s as ripgrep's --glob does (any depth) → %s", (glob, text, expected) => {
    expect(globToRegExp(glob, { anyDepth: true }).test(text)).toBe(expected);
  });
});
