import { describe, expect, it } from "vitest";
import { standardTools } from "../tools/catalogue/standard-tools.js";
import { applyRole, type FenceableTool, fenceTools } from "./apply-role.js";
import { BUILT_IN_ROLES } from "./built-in/built-in-roles.js";
import { GENERIC_SUBAGENT_PROMPT } from "./built-in/default-role.js";
import { explorerRole } from "./built-in/explorer-role.js";
import { reviewerRole } from "./built-in/reviewer-role.js";
import { fallbackRole } from "./resolve-role.js";
import { READ_TOOLS, type RoleDefinition } from "./role-definition.js";

const tools: FenceableTool[] = standardTools().map((tool) => ({ name: tool.name, mutates: tool.mutates }));
const mutating = tools.filter((tool) => tool.mutates).map((tool) => tool.name);

function customRole(fields: Partial<RoleDefinition>): RoleDefinition {
  return {
    name: "custom",
    description: "",
    readOnly: false,
    enabled: true,
    source: { kind: "config" },
    ...fields,
  };
}

describe("applyRole model layers", () => {
  const role = customRole({});
  const base = { parentModel: "anthropic/parent", availableTools: [] };

  it("inherits the parent's model", () => {
    expect(applyRole(role, base)).toMatchObject({ model: "anthropic/parent", modelLayer: "parent" });
  });

  it("uses subagent_model over the parent's", () => {
    expect(applyRole(role, { ...base, subagentModel: "openai/sub" })).toMatchObject({
      model: "openai/sub",
      modelLayer: "subagent-model",
    });
  });

  it("uses the role's model over subagent_model", () => {
    expect(applyRole({ ...role, model: "sonnet" }, { ...base, subagentModel: "openai/sub" })).toMatchObject({
      model: "sonnet",
      modelLayer: "role",
    });
  });

  it("uses the session override for the role's name over everything", () => {
    const applied = applyRole(
      { ...role, model: "sonnet" },
      { ...base, subagentModel: "openai/sub", sessionOverrides: { custom: "deepseek/chat", other: "x/y" } },
    );
    expect(applied).toMatchObject({ model: "deepseek/chat", modelLayer: "session-override" });
  });
});

describe("applyRole", () => {
  it("labels the agent, uses the role's prompt and step cap", () => {
    const applied = applyRole(explorerRole, { parentModel: "m", availableTools: tools });
    expect(applied.name).toBe("sub-agent/explorer");
    expect(applied.systemPrompt).toBe(explorerRole.systemPrompt);
    expect(applied.maxSteps).toBe(30);
    expect(applied.toolNames.sort()).toEqual([...READ_TOOLS].sort());
  });

  it("gives a role without prompt or cap the generic prompt and 50 steps, capped by the parent", () => {
    const applied = applyRole(fallbackRole("wizard"), { parentModel: "m", availableTools: tools });
    expect(applied).toMatchObject({
      name: "sub-agent/wizard",
      systemPrompt: GENERIC_SUBAGENT_PROMPT,
      maxSteps: 50,
    });
    expect(applied.toolNames).toEqual(tools.map((tool) => tool.name));
    expect(
      applyRole(customRole({ maxSteps: 80 }), { parentModel: "m", parentMaxSteps: 20, availableTools: [] })
        .maxSteps,
    ).toBe(20);
  });

  it("never gives a read-only role a mutating tool, whatever its lists say", () => {
    const role = customRole({ readOnly: true, allowedTools: ["read", "write", "bash", "git_*"] });
    const applied = applyRole(role, { parentModel: "m", availableTools: tools });
    expect(applied.toolNames.sort()).toEqual([
      "git_branch",
      "git_diff",
      "git_log",
      "git_show",
      "git_status",
      "read",
    ]);
    expect(applied.droppedByReadOnly.sort()).toEqual(["bash", "git_checkout", "git_commit", "write"]);

    const everything = applyRole(customRole({ readOnly: true }), { parentModel: "m", availableTools: tools });
    expect(everything.toolNames.filter((name) => mutating.includes(name))).toEqual([]);
    expect(everything.droppedByReadOnly.sort()).toEqual([...mutating].sort());
  });

  it("keeps every read-only built-in away from mutating tools (reviewer loses bash)", () => {
    for (const role of BUILT_IN_ROLES.filter((candidate) => candidate.readOnly)) {
      const applied = applyRole(role, { parentModel: "m", availableTools: tools });
      expect(
        applied.toolNames.filter((name) => mutating.includes(name)),
        role.name,
      ).toEqual([]);
    }
    expect(applyRole(reviewerRole, { parentModel: "m", availableTools: tools }).droppedByReadOnly).toEqual([
      "bash",
    ]);
  });
});

describe("fenceTools", () => {
  const available: FenceableTool[] = [
    { name: "read", mutates: false },
    { name: "git_status", mutates: false },
    { name: "git_commit", mutates: true },
    { name: "bash", mutates: true },
    { name: "mcp__github__create_issue", mutates: true },
    { name: "mcp__github__list_issues", mutates: false },
    { name: "mcp__slack__post", mutates: true },
  ];
  const fence = (role: Partial<RoleDefinition>) =>
    fenceTools({ readOnly: false, ...role }, available).toolNames;

  it("applies glob allow lists", () => {
    expect(fence({ allowedTools: ["git_*", "mcp__github__*"] })).toEqual([
      "git_status",
      "git_commit",
      "mcp__github__create_issue",
      "mcp__github__list_issues",
    ]);
  });

  it("subtracts glob deny lists from the allow list or from everything", () => {
    expect(fence({ allowedTools: ["git_*", "read"], disallowedTools: ["git_commit"] })).toEqual([
      "read",
      "git_status",
    ]);
    expect(fence({ disallowedTools: ["mcp__*", "bash"] })).toEqual(["read", "git_status", "git_commit"]);
  });

  it("limits MCP tools to the role's servers", () => {
    expect(fence({ mcpServers: ["github"] })).toEqual([
      "read",
      "git_status",
      "git_commit",
      "bash",
      "mcp__github__create_issue",
      "mcp__github__list_issues",
    ]);
    expect(fence({ mcpServers: [], allowedTools: ["mcp__*"] })).toEqual([]);
  });

  it("drops mutating MCP tools from a read-only role", () => {
    expect(fenceTools({ readOnly: true, allowedTools: ["mcp__github__*"] }, available)).toEqual({
      toolNames: ["mcp__github__list_issues"],
      droppedByReadOnly: ["mcp__github__create_issue"],
    });
  });
});
