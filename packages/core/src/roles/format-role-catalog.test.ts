import { describe, expect, it } from "vitest";
import { BUILT_IN_ROLES } from "./built-in/built-in-roles.js";
import { formatRoleCatalog, roleView } from "./format-role-catalog.js";
import type { RoleDefinition } from "./role-definition.js";

const explorer = BUILT_IN_ROLES.find((role) => role.name === "explorer")!;
const worker = BUILT_IN_ROLES.find((role) => role.name === "worker")!;

describe("formatRoleCatalog (nyz agents, /agents)", () => {
  it("lists each role with its state, source and notes, the description indented under it", () => {
    const helper: RoleDefinition = {
      ...worker,
      name: "helper",
      description: "Helps.",
      source: { kind: "file", scope: "project", path: ".nyzhi/agents/helper.md" },
      overrides: [{ kind: "agents-json", scope: "global", path: "/home/u/.config/nyzhi/agents.json" }],
    };
    const off: RoleDefinition = {
      ...worker,
      enabled: false,
      disabledBy: { kind: "config", scope: "project" },
    };
    expect(formatRoleCatalog([explorer, helper, off], { subagentsEnabled: true })).toBe(
      [
        `explorer  enabled   built-in [read-only]`,
        `          ${explorer.description}`,
        `helper    enabled   file (project) .nyzhi/agents/helper.md [overrides agents.json (global) /home/u/.config/nyzhi/agents.json]`,
        "          Helps.",
        `worker    disabled  built-in [disabled by config (project)]`,
        `          ${worker.description}`,
        "",
      ].join("\n"),
    );
  });

  it("says first when subagents are off, and reports sources as data for --json", () => {
    expect(formatRoleCatalog([explorer], { subagentsEnabled: false })).toMatch(
      /^Subagents are disabled \(agent\.agents\.enabled = false\): no role can be spawned\.\n\nexplorer/,
    );
    expect(roleView(explorer)).toMatchObject({
      name: "explorer",
      readOnly: true,
      source: { kind: "built-in", label: "built-in" },
      overrides: [],
    });
  });
});
