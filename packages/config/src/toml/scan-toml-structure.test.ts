import { describe, expect, it } from "vitest";
import { parseConfigValue } from "./parse-toml-document.js";
import { locateKeyLine, scanTomlStructure } from "./scan-toml-structure.js";

const TEXT = `top = 1
[agent]
list = [
  "a", # [not.a.table]
  "b",
]
text = """
[also.not.a.table]
"""
trust.mode = "full"

[[agent.hooks]]
event = "after_turn"
[[agent.hooks]]
event = "after_edit"
["quoted key".x]
y = 2
`;

describe("scanTomlStructure / locateKeyLine", () => {
  it("lists tables and keys with their lines, skipping multi-line values", () => {
    expect(scanTomlStructure(TEXT).map((entry) => [entry.kind, entry.path.join("."), entry.line])).toEqual([
      ["key", "top", 1],
      ["table", "agent", 2],
      ["key", "agent.list", 3],
      ["key", "agent.text", 7],
      ["key", "agent.trust.mode", 10],
      ["array-table", "agent.hooks.0", 12],
      ["key", "agent.hooks.0.event", 13],
      ["array-table", "agent.hooks.1", 14],
      ["key", "agent.hooks.1.event", 15],
      ["table", "quoted key.x", 16],
      ["key", "quoted key.x.y", 17],
    ]);
  });

  it("points at a key's line, or the deepest table containing a missing key", () => {
    expect(locateKeyLine(TEXT, ["agent", "trust", "mode"])).toBe(10);
    expect(locateKeyLine(TEXT, ["agent", "hooks", 1, "event"])).toBe(15);
    expect(locateKeyLine(TEXT, ["agent", "hooks", 1, "command"])).toBe(14);
    expect(locateKeyLine(TEXT, ["mcp", "servers"])).toBeUndefined();
  });
});

describe("parseConfigValue", () => {
  it("reads TOML literals and falls back to the raw text", () => {
    expect(
      ["5", "true", "1.5", '["a", 1]', "{ x = 1 }", '"quoted"', "plain words", "a = b", "1\nx = 2"].map(
        parseConfigValue,
      ),
    ).toEqual([5, true, 1.5, ["a", 1], { x: 1 }, "quoted", "plain words", "a = b", "1\nx = 2"]);
  });
});
