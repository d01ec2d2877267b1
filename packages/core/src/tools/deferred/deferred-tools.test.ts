import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type Tool } from "../seam/define-tool.js";
import { filterToolNames, matchesToolPattern, ToolRegistry } from "../seam/tool-registry.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { deferIfMany } from "./defer-if-many.js";
import { deferredToolsFragment } from "./deferred-tools-fragment.js";
import { TOOL_REGISTRY_SERVICE, toolSearchTool } from "./tool-search-tool.js";

function dummy(name: string, description: string, mutates = false): Tool {
  return defineTool({
    name,
    description,
    inputSchema: z.object({ value: z.string() }),
    kind: mutates ? "edit" : "read",
    mutates,
    execute: async ({ value }) => `${name}:${value}`,
  });
}

const offered = (registry: ToolRegistry) => registry.definitions().map((definition) => definition.name);

let test: TestContext;
let registry: ToolRegistry;
beforeEach(async () => {
  registry = new ToolRegistry([dummy("think", "Think.")]);
  test = await createTestContext({ services: { [TOOL_REGISTRY_SERVICE]: registry } });
});
afterEach(async () => {
  await test.cleanup();
});

describe("ToolRegistry deferred tools", () => {
  it("keeps deferred tools out of definitions until expanded, but callable by name", () => {
    registry.registerDeferred(dummy("mcp__db__query", "Run a SQL query.\nMore detail here."));
    registry.registerDeferred(dummy("mcp__db__schema", "Show the schema."));
    expect(offered(registry)).toEqual(["think"]);
    expect(registry.names()).toEqual(["mcp__db__query", "mcp__db__schema", "think"]);
    expect(registry.isDeferred("mcp__db__query")).toBe(true);
    expect(registry.deferredCount()).toBe(2);
    expect(registry.deferredIndex()).toEqual([
      { name: "mcp__db__query", description: "Run a SQL query." },
      { name: "mcp__db__schema", description: "Show the schema." },
    ]);

    expect(registry.peek("mcp__db__schema")?.name).toBe("mcp__db__schema");
    expect(registry.isDeferred("mcp__db__schema")).toBe(true);

    expect(registry.get("mcp__db__query")?.name).toBe("mcp__db__query");
    expect(registry.isDeferred("mcp__db__query")).toBe(false);
    expect(offered(registry)).toEqual(["mcp__db__query", "think"]);

    expect(registry.expand("mcp__db__schema")).toBe(true);
    expect(registry.expand("mcp__db__schema")).toBe(false);
    expect(registry.expand("nope")).toBe(false);
    expect(offered(registry)).toEqual(["mcp__db__query", "mcp__db__schema", "think"]);
    expect(registry.deferredIndex()).toEqual([]);
  });

  it("keeps deferral through filtered() and readOnly(), each copy expanding on its own", () => {
    registry.registerDeferred(dummy("mcp__a__read", "Read a."));
    registry.registerDeferred(dummy("mcp__a__write", "Write a.", true));
    const fenced = registry.filtered({ disallowed: ["mcp__a__write"] });
    expect(fenced.names()).toEqual(["mcp__a__read", "think"]);
    expect(fenced.isDeferred("mcp__a__read")).toBe(true);
    const readOnly = registry.readOnly();
    expect(readOnly.names()).toEqual(["mcp__a__read", "think"]);
    fenced.expand("mcp__a__read");
    expect(offered(fenced)).toEqual(["mcp__a__read", "think"]);
    expect(registry.isDeferred("mcp__a__read")).toBe(true);
    expect(readOnly.isDeferred("mcp__a__read")).toBe(true);
  });

  it("register() over a deferred name makes it a normal tool; unregister() forgets it", () => {
    registry.registerDeferred(dummy("x", "X."));
    registry.register(dummy("x", "X again."));
    expect(registry.isDeferred("x")).toBe(false);
    registry.registerDeferred(dummy("y", "Y."));
    registry.unregister("y");
    expect(registry.deferredIndex()).toEqual([]);
    expect(registry.has("y")).toBe(false);
  });

  it("offers what is registered now, sorted, and reads each description when asked", () => {
    expect(offered(registry)).toEqual(["think"]);
    registry.register(dummy("alpha", "A."));
    expect(offered(registry)).toEqual(["alpha", "think"]);
    registry.unregister("think");
    expect(offered(registry)).toEqual(["alpha"]);
    let calls = 0;
    registry.register({
      ...dummy("beta", ""),
      get description() {
        calls += 1;
        return `Beta ${calls}.`;
      },
    });
    expect(registry.definitions().find((definition) => definition.name === "beta")?.description).toBe(
      "Beta 1.",
    );
    expect(registry.definitions().find((definition) => definition.name === "beta")?.description).toBe(
      "Beta 2.",
    );
    registry.list().pop();
    expect(offered(registry)).toEqual(["alpha", "beta"]);
  });

  it("leaves the fence helpers as they were", () => {
    expect(matchesToolPattern("mcp__github__create_issue", "mcp__github__*")).toBe(true);
    expect(filterToolNames(["read", "write", "bash"], { allowed: ["*"], disallowed: ["bash"] })).toEqual([
      "read",
      "write",
    ]);
  });
});

describe("deferIfMany", () => {
  const many = (count: number) =>
    Array.from({ length: count }, (_, index) => dummy(`mcp__s__tool_${index}`, `Tool ${index}.`));

  it("registers up to the threshold normally", () => {
    expect(deferIfMany(registry, many(15), { threshold: 15 })).toEqual({ deferred: false });
    expect(offered(registry)).toHaveLength(16);
    expect(registry.has("tool_search")).toBe(false);
  });

  it("defers above the threshold and adds tool_search", () => {
    expect(deferredToolsFragment(registry)).toEqual({ kind: "mcp", text: "" });
    expect(deferIfMany(registry, many(16))).toEqual({ deferred: true });
    expect(offered(registry)).toEqual(["think", "tool_search"]);
    expect(registry.deferredCount()).toBe(16);
    expect(deferredToolsFragment(registry).text).toMatch(
      /^# More Tools\n\n16 more tools .* Call `tool_search`/,
    );
  });
});

describe("tool_search", () => {
  beforeEach(() => {
    deferIfMany(registry, [
      dummy("mcp__github__create_issue", "Create an issue in a GitHub repository."),
      dummy("mcp__github__list_issues", "List issues of a GitHub repository."),
      dummy("mcp__jira__create_ticket", "Create a Jira ticket."),
      ...Array.from({ length: 14 }, (_, index) => dummy(`mcp__misc__noop_${index}`, "Does nothing.")),
    ]);
  });

  it("keyword: every word must appear in name or description, case-insensitive; matches are expanded", async () => {
    const result = await runTool(toolSearchTool, { query: "CREATE github" }, test.context);
    expect(result.isError).toBeUndefined();
    expect(result.output).toContain("Found 1 tool(s)");
    expect(result.output).toContain("## mcp__github__create_issue\nCreate an issue in a GitHub repository.");
    expect(result.output).toContain('"properties":{"value":{"type":"string"}}');
    expect(result.output).not.toContain("jira");
    expect(offered(registry)).toEqual(["mcp__github__create_issue", "think", "tool_search"]);

    // Expanded tools are no longer searched.
    const again = await runTool(toolSearchTool, { query: "create" }, test.context);
    expect(again.output).toContain("## mcp__jira__create_ticket");
    expect(again.output).not.toContain("## mcp__github__create_issue");
  });

  it("regex search, invalid regex, no match and the result cap", async () => {
    const regex = await runTool(
      toolSearchTool,
      { query: "^mcp__github__", search_type: "regex" },
      test.context,
    );
    expect(regex.output).toContain("Found 2 tool(s)");
    const invalid = await runTool(toolSearchTool, { query: "(", search_type: "regex" }, test.context);
    expect(invalid).toMatchObject({ isError: true });
    expect(invalid.output).toContain("Invalid regex '('");
    const none = await runTool(toolSearchTool, { query: "slack" }, test.context);
    expect(none.output).toMatch(
      /^No unloaded tool matches 'slack'\. .*Unloaded tools: mcp__jira__create_ticket/,
    );
    const capped = await runTool(toolSearchTool, { query: "nothing" }, test.context);
    expect(capped.output).toContain("Found 14 tool(s)");
    expect(capped.output).toContain("4 more tools matched");
    expect(registry.deferredCount()).toBe(5);
  });

  it("says so when no registry service is set up", async () => {
    const bare = await createTestContext();
    const result = await runTool(toolSearchTool, { query: "x" }, bare.context);
    expect(result).toEqual({
      output: "tool_search is not available here: the host set up no tool registry.",
      isError: true,
    });
    await bare.cleanup();
  });
});
