import { defaultConfig } from "@nyzhi/config";
import { describe, expect, it } from "vitest";
import { fenceTools } from "./apply-role.js";
import {
  DEFAULT_TOOL_ROLE_PATTERNS,
  resolveToolRolePatterns,
  selectToolsByPatterns,
} from "./tool-role-patterns.js";

const names = [
  "read",
  "write",
  "edit",
  "bash",
  "grep",
  "todoread",
  "Git_Diff",
  "mcp__lab__echo",
  "mcp__lab__add",
  "read",
];

describe("selectToolsByPatterns", () => {
  it("selects by case-insensitive substring, appends every MCP tool and deduplicates", () => {
    expect(selectToolsByPatterns("r", names, { r: ["READ", "git_diff"] })).toEqual([
      "read",
      "todoread",
      "Git_Diff",
      "mcp__lab__echo",
      "mcp__lab__add",
    ]);
  });

  it("falls back to every core (non-MCP) tool when no pattern matches", () => {
    expect(selectToolsByPatterns("r", names, { r: ["nothing-like-this"] })).toEqual([
      "read",
      "write",
      "edit",
      "bash",
      "grep",
      "todoread",
      "Git_Diff",
    ]);
  });

  it("leaves roles without an entry alone", () => {
    expect(selectToolsByPatterns("default", names, DEFAULT_TOOL_ROLE_PATTERNS)).toBeUndefined();
  });

  it("lets config replace or add entries", () => {
    const config = defaultConfig();
    config.agent.tool_role_patterns = { tester: ["bash"], custom: ["grep"] };
    const table = resolveToolRolePatterns(config);
    expect(table.tester).toEqual(["bash"]);
    expect(table.custom).toEqual(["grep"]);
    expect(table["doc-writer"]).toEqual(DEFAULT_TOOL_ROLE_PATTERNS["doc-writer"]);
  });
});

describe("fenceTools with patterns", () => {
  const tools = names
    .slice(0, -1)
    .map((name) => ({ name, mutates: ["write", "edit", "bash"].includes(name) }));

  it("applies the permission fence after the pattern selection (read-only, deny list, MCP servers)", () => {
    const fenced = fenceTools(
      { name: "r", readOnly: true, disallowedTools: ["todo*"], mcpServers: ["lab"] },
      tools,
      { patterns: { r: ["read", "write"] } },
    );
    expect(fenced).toEqual({
      toolNames: ["read", "mcp__lab__echo", "mcp__lab__add"],
      droppedByReadOnly: ["write"],
    });
  });

  it("ignores the table for a role with an explicit tool list", () => {
    expect(
      fenceTools({ name: "r", readOnly: false, allowedTools: ["bash"] }, tools, { patterns: { r: ["read"] } })
        .toolNames,
    ).toEqual(["bash"]);
  });
});
