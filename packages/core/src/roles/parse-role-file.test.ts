import { describe, expect, it } from "vitest";
import { parseRoleFile } from "./parse-role-file.js";

const path = ".claude/agents/code-reviewer.md";

describe("parseRoleFile", () => {
  it("reads a Claude Code agent file as it is", async () => {
    const text = [
      "---",
      "name: code-reviewer",
      "description: Reviews code after changes",
      "tools: Read, Grep, Glob",
      "model: inherit",
      "color: blue",
      "---",
      "",
      "You review code.",
      "",
    ].join("\n");
    expect(await parseRoleFile({ text, path, stem: "code-reviewer" })).toEqual({
      role: {
        name: "code-reviewer",
        description: "Reviews code after changes",
        systemPrompt: "You review code.",
        readOnly: false,
        enabled: true,
        allowedTools: ["read", "grep", "glob"],
        source: { kind: "file", path, scope: "project" },
      },
      warnings: [],
    });
  });

  it("reads our own keys, YAML lists and Claude model aliases", async () => {
    const text = [
      "---",
      "description: API expert",
      "model: sonnet",
      "max_steps: 60",
      "read_only: true",
      "enabled: false",
      "allowed_tools: [read, git_*, mcp__github__*]",
      "disallowed_tools:",
      "  - git_commit",
      "mcp_servers: [github]",
      "---",
      "Body",
    ].join("\n");
    const { role, warnings } = await parseRoleFile({ text, path: ".nyzhi/agents/api.md", stem: "api" });
    expect(warnings).toEqual([]);
    expect(role).toEqual({
      name: "api",
      description: "API expert",
      systemPrompt: "Body",
      model: "sonnet",
      maxSteps: 60,
      readOnly: true,
      enabled: false,
      allowedTools: ["read", "git_*", "mcp__github__*"],
      disallowedTools: ["git_commit"],
      mcpServers: ["github"],
      source: { kind: "file", path: ".nyzhi/agents/api.md", scope: "project" },
    });
  });

  it("maps every Claude Code tool name and warns about the ones nyzhi lacks", async () => {
    const text = [
      "---",
      "tools: [Read, Write, Edit, MultiEdit, Bash, Grep, Glob, LS, WebFetch, WebSearch, TodoWrite, NotebookEdit, Task, mcp__github__create_issue, frobnicate]",
      "disallowedTools: Bash",
      "---",
    ].join("\n");
    const { role, warnings } = await parseRoleFile({ text, path, stem: "all" });
    expect(role?.allowedTools).toEqual([
      "read",
      "write",
      "edit",
      "multi_edit",
      "bash",
      "grep",
      "glob",
      "list_dir",
      "web_fetch",
      "todowrite",
      "todoread",
      "mcp__github__create_issue",
      "frobnicate",
    ]);
    expect(role?.disallowedTools).toEqual(["bash"]);
    expect(role?.systemPrompt).toBeUndefined();
    expect(warnings.map((warning) => warning.message)).toEqual([
      `Agent file ${path}: tools: dropped 'WebSearch' (nyzhi has no web search tool)`,
      `Agent file ${path}: tools: dropped 'NotebookEdit' (nyzhi has no notebook tools)`,
      `Agent file ${path}: tools: dropped 'Task' (subagents get spawn tools from the runtime, not from a role's tool list)`,
      `Agent file ${path}: tools: unknown tool 'frobnicate' (kept as given)`,
    ]);
  });

  it("skips a file with broken front matter and names the file", async () => {
    const text = "---\nname: [unclosed\ndescription: x\n---\nbody";
    const { role, warnings } = await parseRoleFile({ text, path, stem: "broken" });
    expect(role).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.path).toBe(path);
    expect(warnings[0]!.message).toMatch(
      /^Skipped agent file \.claude\/agents\/code-reviewer\.md: invalid front matter/,
    );
  });

  it("skips a file whose keys have the wrong type", async () => {
    const text = "---\nmax_steps: lots\n---\nbody";
    const { role, warnings } = await parseRoleFile({ text, path, stem: "x" });
    expect(role).toBeUndefined();
    expect(warnings[0]!.message).toContain(`Skipped agent file ${path}: front matter key 'max_steps'`);
  });

  it("skips an invalid role name and warns about unknown keys", async () => {
    expect(
      (await parseRoleFile({ text: "---\nname: a b\n---\n", path, stem: "x" })).warnings[0]!.message,
    ).toContain("invalid role name 'a b'");
    const { role, warnings } = await parseRoleFile({ text: "---\nread-only: true\n---\n", path, stem: "x" });
    expect(role?.readOnly).toBe(false);
    expect(warnings.map((warning) => warning.message)).toEqual([
      `Agent file ${path}: unknown key 'read-only' ignored`,
    ]);
  });

  it("uses the file stem when there is no front matter", async () => {
    const { role } = await parseRoleFile({ text: "Just a prompt.\n", path, stem: "plain" });
    expect(role?.name).toBe("plain");
    expect(role?.systemPrompt).toBe("Just a prompt.");
  });
});
