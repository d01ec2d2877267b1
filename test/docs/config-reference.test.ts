import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_KEY_DOCS } from "../../packages/config/src/schema/config-key-docs.js";
import { configReference, renderConfigReference } from "../../packages/config/src/schema/config-reference.js";

/**
 * docs/configuration.md's key tables are generated from the zod schema (`configReference()`): this
 * test regenerates them and fails when the committed file was stale (run it, then commit the file).
 */
const DOC = new URL("../../docs/configuration.md", import.meta.url);
const BEGIN =
  "<!-- BEGIN GENERATED: configReference() — edit packages/config/src/schema/config-key-docs.ts -->";
const END = "<!-- END GENERATED -->";

describe("the configuration reference", () => {
  const rows = configReference();

  it("describes every key of the schema, and only those", () => {
    expect(rows.filter((row) => !CONFIG_KEY_DOCS[row.key]).map((row) => row.key)).toEqual([]);
    const keys = new Set(rows.map((row) => row.key));
    expect(Object.keys(CONFIG_KEY_DOCS).filter((key) => !keys.has(key))).toEqual([]);
  });

  it("says what an untrusted project may set", () => {
    const permission = (key: string) => rows.find((row) => row.key === key)?.project;
    expect({
      hooks: permission("agent.hooks[].command"),
      mcp: permission("mcp.servers.<name>.command"),
      mode: permission("agent.trust.mode"),
      baseUrl: permission("provider.<id>.base_url"),
      theme: permission("tui.theme"),
      projects: permission("projects.<name>.trusted"),
    }).toEqual({
      hooks: "no",
      mcp: "no",
      mode: "only to narrow",
      baseUrl: "only to narrow",
      theme: "yes",
      projects: "global file only",
    });
  });

  it("is current in docs/configuration.md (regenerated here when stale)", () => {
    const text = readFileSync(DOC, "utf8");
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, `docs/configuration.md must hold the markers ${BEGIN} … ${END}`).toBeGreaterThan(-1);
    const current = `${text.slice(0, start + BEGIN.length)}\n\n${renderConfigReference(rows)}\n${text.slice(end)}`;
    if (current !== text) writeFileSync(DOC, current);
    expect(current === text, "docs/configuration.md was stale; it has been regenerated: commit it").toBe(
      true,
    );
  });
});
