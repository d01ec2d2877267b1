import { describe, expect, it } from "vitest";
import { READ_TOOLS } from "../role-definition.js";
import { BUILT_IN_ROLES } from "./built-in-roles.js";

describe("BUILT_IN_ROLES", () => {
  it("has the 14 roles with the read-only flags, tool lists and step caps of the spec", () => {
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
    expect(prompts.size).toBe(14);
  });
});
