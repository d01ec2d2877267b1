import { z } from "zod";
import { type AgentDefinition, agentDefinitionProblems } from "../../roles/agents-json/agent-definition.js";
import { writeAgentEntry } from "../../roles/agents-json/write-agents-json.js";
import { describeRoleSource } from "../../roles/role-definition.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import {
  agentsJsonWrite,
  checkedAgentsJsonPath,
  refuseGlobalWriteFromSubagent,
  roleCatalogOf,
} from "./agents-json-service.js";

const inputSchema = z.lazy(() =>
  z.object({
    name: z.string().describe("Agent name: lowercase letters, digits, '-' and '_'."),
    description: z.string().describe("When to use this agent (shown when choosing a subagent)."),
    prompt: z.string().describe("The agent's system prompt."),
    tools: z.array(z.string()).optional().describe("Tools it may use; omit to give it every tool."),
    model: z
      .string()
      .optional()
      .describe("inherit (default), sonnet, opus, haiku, or a model id listed by `nyz models`."),
    scope: z
      .enum(["project", "global"])
      .optional()
      .describe("project (default): .nyzhi/agents.json; global: the user's agents.json (lead only)."),
  }),
);

/**
 * `define_agent` (seed 004): validates a definition, writes it into the chosen agents.json
 * atomically (other entries kept) and reloads the role catalog, so `spawn_agent` and `task` can
 * use the name at once.
 */
export const defineAgentTool = defineShippedTool({
  name: "define_agent",
  description:
    "Define (or replace) a reusable subagent in agents.json. It can be used with spawn_agent (agent_type) or task (subagent_type) right away and in later sessions.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input, context) => [agentsJsonWrite(context, input.scope)],
  async execute(input, context) {
    const scope = input.scope ?? "project";
    if (scope === "global") refuseGlobalWriteFromSubagent(context, "define_agent");
    const name = input.name.trim();
    const problems = agentDefinitionProblems(name, input);
    if (problems.length > 0)
      throw new ToolError(
        `define_agent refused '${input.name}':\n${problems.map((problem) => `- ${problem}`).join("\n")}`,
      );
    const definition: AgentDefinition = {
      description: input.description.trim(),
      prompt: input.prompt.trim(),
    };
    if (input.tools !== undefined) definition.tools = input.tools.map((tool) => tool.trim());
    if (input.model !== undefined) definition.model = input.model.trim();
    const path = await checkedAgentsJsonPath(context, scope);
    const { replaced } = await writeAgentEntry(path, name, definition);
    const lines = [
      `${replaced ? "Replaced" : "Defined"} agent '${name}' in the ${scope} agents.json (${path}).`,
    ];
    const catalog = roleCatalogOf(context);
    if (catalog) {
      await catalog.reload();
      const winner = catalog.get(name);
      if (winner && !(winner.source.kind === "agents-json" && winner.source.scope === scope))
        lines.push(
          `Note: '${name}' is still resolved from ${describeRoleSource(winner.source)}, which takes precedence; rename this agent or remove that definition.`,
        );
      else if (winner && !winner.enabled)
        lines.push(`Note: '${name}' is disabled by a config toggle (enabled = false).`);
      else if (winner?.overrides?.length)
        lines.push(`It overrides ${winner.overrides.map(describeRoleSource).join(", ")}.`);
    }
    lines.push(`Use it now with spawn_agent (agent_type "${name}") or task (subagent_type "${name}").`);
    return lines.join("\n");
  },
});
