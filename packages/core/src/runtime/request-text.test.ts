import { describe, expect, it } from "vitest";
import { delegationGuidanceFragment } from "../agent-loop/delegation-guidance.js";
import { leadPersonaFragment } from "../agent-loop/lead-persona.js";
import { BUILT_IN_ROLES } from "../roles/built-in/built-in-roles.js";
import { roleLines } from "../roles/format-role-list.js";
import { RoleCatalog } from "../roles/role-catalog.js";
import { planModeFragment, teammateFragment } from "../teams/teammate-prompt.js";
import { shippedTools } from "../tools/catalogue/shipped-tools.js";

// Every model request carries the system prompt and the tool definitions. One character above
// U+00FF anywhere in them (an em dash, an arrow) makes V8 build each serialised request as a
// two-byte string: twice the memory and a slower UTF-8 encoding, on every step of every session.
const NOT_LATIN1 = /[^\u0000-\u00ff]/g;

describe("the text nyzhi sends with every request", () => {
  // What nyzhi itself writes: the fixed prompts of the lead, the built-in roles and teammates, and
  // the tool definitions. (Text from elsewhere, such as a file or the model's own words, may well
  // not be Latin-1; from then on that session's requests are two-byte strings anyway.)
  it("is Latin-1: tool descriptions and schemas, the lead's, built-in roles' and teammates' fixed prompts", () => {
    const texts: Record<string, string> = {
      persona: leadPersonaFragment().text,
      delegation: delegationGuidanceFragment().text,
      roles: roleLines(new RoleCatalog().enabled()),
      teammate: teammateFragment({ team: "t", name: "n", lead: "l" }).text,
      "plan mode": planModeFragment("l").text,
    };
    for (const role of BUILT_IN_ROLES) texts[`${role.name} prompt`] = role.systemPrompt ?? "";
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
