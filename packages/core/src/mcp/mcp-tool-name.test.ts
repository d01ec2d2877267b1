import { describe, expect, it } from "vitest";
import { mcpToolName } from "./mcp-tool-adapter.js";

describe("mcpToolName", () => {
  it("names a tool mcp__server__tool, replacing characters providers reject", () => {
    expect(mcpToolName("git hub", "list.issues")).toBe("mcp__git_hub__list_issues");
  });

  it("keeps long names within 64 characters and apart when they share a beginning", () => {
    const stem = "create_or_update_a_very_long_named_resource_in_the_project_";
    const first = mcpToolName("server", `${stem}alpha`);
    const second = mcpToolName("server", `${stem}beta`);
    expect(first).not.toBe(second);
    for (const name of [first, second]) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^mcp__server__create_or_update_[A-Za-z0-9_-]+_[0-9a-f]{8}$/);
    }
    expect(mcpToolName("server", `${stem}alpha`)).toBe(first); // stable across runs
  });
});
