import { describe, expect, it } from "vitest";
import { globToRegExp } from "../engines/glob/glob-to-regexp.js";
import { hookFiltersPass, matchesFilePattern, matchesToolName } from "./match-hook.js";

const cwd = "/work/project";

describe("matchesFilePattern", () => {
  it("matches *.ext on the file name, relative or absolute", () => {
    expect(matchesFilePattern(["*.rs"], "/work/project/src/main.rs", cwd)).toBe(true);
    expect(matchesFilePattern(["*.rs"], "src/main.rs", cwd)).toBe(true);
    expect(matchesFilePattern(["*.rs"], "/work/project/src/main.ts", cwd)).toBe(false);
  });

  it("matches any entry of a list", () => {
    const patterns = ["*.ts", "*.tsx"];
    expect(matchesFilePattern(patterns, "/work/project/a.tsx", cwd)).toBe(true);
    expect(matchesFilePattern(patterns, "/work/project/a.ts", cwd)).toBe(true);
    expect(matchesFilePattern(patterns, "/work/project/a.js", cwd)).toBe(false);
  });

  it("treats an entry without glob characters as a substring", () => {
    expect(matchesFilePattern(["src/"], "/work/project/src/lib/a.ts", cwd)).toBe(true);
    expect(matchesFilePattern(["src/"], "/work/project/test/a.ts", cwd)).toBe(false);
  });

  it("matches a glob with a slash against the path relative to cwd", () => {
    expect(matchesFilePattern(["src/**/*.ts"], "/work/project/src/a/b/c.ts", cwd)).toBe(true);
    expect(matchesFilePattern(["src/**/*.ts"], "/work/project/src/c.ts", cwd)).toBe(true);
    expect(matchesFilePattern(["src/*.ts"], "/work/project/src/a/c.ts", cwd)).toBe(false);
    expect(matchesFilePattern(["src/**/*.ts"], "/elsewhere/src/c.ts", cwd)).toBe(false);
  });
});

describe("matchesToolName", () => {
  it("is case-insensitive over a list", () => {
    expect(matchesToolName(["Bash", "write"], "bash")).toBe(true);
    expect(matchesToolName(["bash", "write"], "WRITE")).toBe(true);
    expect(matchesToolName(["bash"], "bash_output")).toBe(false);
  });

  it("allows * and ? globs", () => {
    expect(matchesToolName(["mcp__*"], "mcp__github__create_issue")).toBe(true);
    expect(matchesToolName(["*_file"], "delete_file")).toBe(true);
    expect(matchesToolName(["edi?"], "edit")).toBe(true);
    expect(matchesToolName(["mcp__*"], "bash")).toBe(false);
  });
});

describe("hookFiltersPass", () => {
  it("passes when no filter is set, whatever the subject", () => {
    expect(hookFiltersPass({}, { files: [], cwd })).toBe(true);
    expect(hookFiltersPass({ pattern: "", tool_name: " , " }, { files: [], cwd })).toBe(true);
  });

  it("needs both filters to pass", () => {
    const filters = { pattern: "*.ts", tool_name: "write, edit" };
    expect(hookFiltersPass(filters, { toolName: "Edit", files: ["/work/project/a.ts"], cwd })).toBe(true);
    expect(hookFiltersPass(filters, { toolName: "bash", files: ["/work/project/a.ts"], cwd })).toBe(false);
    expect(hookFiltersPass(filters, { toolName: "edit", files: ["/work/project/a.md"], cwd })).toBe(false);
  });

  it("does not fire a filtered hook for an event without that subject", () => {
    expect(hookFiltersPass({ pattern: "*.ts" }, { toolName: "bash", files: [], cwd })).toBe(false);
    expect(hookFiltersPass({ tool_name: "bash" }, { files: ["/work/project/a.ts"], cwd })).toBe(false);
  });
});

describe("globToRegExp", () => {
  it("escapes regex characters and supports classes", () => {
    expect(globToRegExp("a.b+(c)").test("a.b+(c)")).toBe(true);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
    expect(globToRegExp("[ab].ts").test("b.ts")).toBe(true);
    expect(globToRegExp("[!ab].ts").test("b.ts")).toBe(false);
  });
});
