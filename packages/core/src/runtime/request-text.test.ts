import { describe, expect, it } from "vitest";
import { delegationGuidanceFragment } from "../agent-loop/delegation-guidance.js";
import { leadPersonaFragment } from "../agent-loop/lead-persona.js";
import { roleLines } from "../roles/format-role-list.js";
import { RoleCatalog } from "../roles/role-catalog.js";
import { shippedTools } from "../tools/testing/shipped-tools.js";

// Every model request carries the system prompt and the tool definitions. One character above
// U+00FF anywhere in them (an em dash, an arrow) makes V8 build each serialised request as a
// two-byte string: twice the memory and a slower UTF-8 encoding, on every step of every session.
const NOT_LATIN1 = /[^\u0000-\u00ff]/g;

describe("the text nyzhi sends with every request", () => {
  it("is Latin-1: tool descriptions and schemas, built-in roles, the lead's fixed prompt", () => {
    const texts: Record<string, string> = {
      persona: leadPersonaFragment().text,
      delegation: delegationGuidanceFragment().text,
      roles: roleLines(new RoleCatalog().enabled()),
    };
    for (const tool of shippedTools()) {
      texts[`${tool.name} description`] = tool.description;
      texts[`${tool.name} schema`] = JSON.stringify(tool.inputJsonSchema);
    }
    const offending = Object.entries(texts)
      .map(([where, text]) => [where, [...new Set(text.match(NOT_LATIN1) ?? [])].join(" ")])
      .filter(([, found]) => found !== "");
    expect(offending).toEqual([]);
  });
});
