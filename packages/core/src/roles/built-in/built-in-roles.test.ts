import { describe, expect, it } from "vitest";
import { READ_TOOLS } from "../role-definition.js";
import { BUILT_IN_ROLES } from "./built-in-roles.js";

describe("BUILT_IN_ROLES", () => {
  it("has the 20 roles with the read-only flags, tool lists and step caps of the spec", () => {
    const withBash = [...READ_TOOLS, "bash"];
    expect(
      BUILT_IN_ROLES.map((role) => [
        role.name,
        role.readOnly,
        role.allowedTools ?? "all",
        role.maxSteps ?? null,
      ]),
    ).toEqual([
      ["default", false, "all", null],
      ["explorer", true, READ_TOOLS, 30],
      ["worker", false, "all", 50],
      ["reviewer", true, withBash, 40],
      ["planner", true, [...READ_TOOLS, "todowrite", "todoread"], 40],
      ["architect", true, withBash, 40],
      ["debugger", false, "all", 60],
      ["security-reviewer", true, withBash, 40],
      ["quality-reviewer", true, READ_TOOLS, 40],
      ["test-engineer", false, "all", 50],
      ["build-fixer", false, "all", 40],
      ["deep-executor", false, "all", 80],
      ["document-specialist", false, "all", 40],
      ["code-simplifier", false, "all", 40],
      ["code-analyzer", false, "all", 40],
      ["doc-writer", false, "all", 40],
      ["file-organizer", false, "all", 50],
      ["tester", false, "all", 50],
      ["architecture-expert", true, "all", 30],
      ["general-purpose", false, "all", 50],
    ]);
  });

  it("gives each role a description, its own prompt of 10–30 lines, no model and no deny list", () => {
    const prompts = new Set<string>();
    for (const role of BUILT_IN_ROLES) {
      expect(role.description.length, role.name).toBeGreaterThan(10);
      const lines = role.systemPrompt?.split("\n").length ?? 0;
      expect(lines, role.name).toBeGreaterThanOrEqual(10);
      expect(lines, role.name).toBeLessThanOrEqual(30);
      prompts.add(role.systemPrompt!);
      expect(role.model).toBeUndefined();
      expect(role.disallowedTools).toBeUndefined();
      expect(role).toMatchObject({ enabled: true, source: { kind: "built-in" } });
    }
    expect(prompts.size).toBe(20);
  });

  it("lets only general-purpose inherit skills, and names each seed 003 specialist once", () => {
    expect(BUILT_IN_ROLES.filter((role) => role.skills !== undefined)).toEqual([
      expect.objectContaining({ name: "general-purpose", skills: ["*"] }),
    ]);
    const names = BUILT_IN_ROLES.map((role) => role.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ["code-analyzer", "doc-writer", "debugger", "file-organizer", "architect", "reviewer"])
      expect(names).toContain(name);
    for (const name of ["tester", "architecture-expert", "general-purpose"]) expect(names).toContain(name);
  });

  it("writes the seed's directives into the specialists' prompts", () => {
    const promptOf = (name: string) => BUILT_IN_ROLES.find((role) => role.name === name)?.systemPrompt ?? "";
    expect(promptOf("code-analyzer")).toMatch(/read a file completely[\s\S]*docs\/code-reviews\//);
    expect(promptOf("doc-writer")).toMatch(/table of contents[\s\S]*code examples[\s\S]*version/);
    expect(promptOf("file-organizer")).toMatch(/list_dir[\s\S]*Plan the new structure[\s\S]*import path/);
    expect(promptOf("tester")).toMatch(
      /Identify the test cases[\s\S]*Run the tests[\s\S]*Analyze the output/,
    );
    expect(promptOf("architecture-expert")).toMatch(
      /call `get_architecture_knowledge` first[\s\S]*confidence/,
    );
    expect(promptOf("general-purpose")).toContain("same tools and skills");
  });
});
