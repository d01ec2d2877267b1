import { z } from "zod";
import { removeAgentEntry } from "../../roles/agents-json/write-agents-json.js";
import { describeRoleSource } from "../../roles/role-definition.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import {
  agentsJsonWrite,
  checkedAgentsJsonPath,
  refuseGlobalWriteFromSubagent,
  roleCatalogOf,
} from "./agents-json-service.js";

/** `remove_agent` (seed 004): deletes one agents.json entry, keeping the others, and reloads the roles. */
export const removeAgentTool = defineShippedTool({
  name: "remove_agent",
  description: "Remove a subagent definition from agents.json (project by default, or global).",
  inputSchema: z.lazy(() =>
    z.object({
      name: z.string(),
      scope: z.enum(["project", "global"]).optional().describe("project (default) or global (lead only)."),
    }),
  ),
  kind: "edit",
  mutates: true,
  paths: (input, context) => [agentsJsonWrite(context, input.scope)],
  async execute(input, context) {
    const scope = input.scope ?? "project";
    if (scope === "global") refuseGlobalWriteFromSubagent(context, "remove_agent");
    const path = await checkedAgentsJsonPath(context, scope);
    if (!(await removeAgentEntry(path, input.name.trim())))
      throw new ToolError(`No agent '${input.name}' in the ${scope} agents.json (${path}).`);
    const lines = [`Removed agent '${input.name}' from the ${scope} agents.json (${path}).`];
    const catalog = roleCatalogOf(context);
    if (catalog) {
      await catalog.reload();
      const next = catalog.get(input.name.trim());
      if (next) lines.push(`'${input.name}' now resolves to ${describeRoleSource(next.source)}.`);
    }
    return lines.join("\n");
  },
});
