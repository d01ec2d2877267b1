import { z } from "zod";
import type { AgentsJsonScope } from "../../roles/agents-json/agents-json-paths.js";
import { readAgentsJson } from "../../roles/agents-json/read-agents-json.js";
import { describeRoleSource } from "../../roles/role-definition.js";
import { defineShippedTool } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { agentsJsonPathFor, roleCatalogOf } from "./agents-json-service.js";

/**
 * `list_agents` (seed 004): the definitions in the global and project agents.json, each with its
 * source, whether the project one overrides a global one of the same name, and whether something
 * of higher precedence (an agent file) or a config toggle hides it.
 */
export const listAgentsTool = defineShippedTool({
  name: "list_agents",
  description:
    "List the subagent definitions in agents.json (global, project, or all) with their source and overrides.",
  inputSchema: z.lazy(() =>
    z.object({
      scope: z.enum(["all", "project", "global"]).optional().describe("all (default), project or global."),
    }),
  ),
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const scope = input.scope ?? "all";
    const scopes: AgentsJsonScope[] = scope === "all" ? ["global", "project"] : [scope];
    const files = new Map<AgentsJsonScope, Awaited<ReturnType<typeof readAgentsJson>>>();
    for (const each of ["global", "project"] as const)
      files.set(each, await readAgentsJson(agentsJsonPathFor(context, each)));
    const sections = scopes.map((each) => describeScope(each, files, context));
    return sections.join("\n\n");
  },
});

function describeScope(
  scope: AgentsJsonScope,
  files: Map<AgentsJsonScope, Awaited<ReturnType<typeof readAgentsJson>>>,
  context: ToolContext,
): string {
  const path = agentsJsonPathFor(context, scope);
  const file = files.get(scope)!;
  const header = `${scope} agents.json (${path})`;
  if (file.state === "missing") return `${header}: no file`;
  if (file.state === "corrupt") return `${header}: skipped — it ${file.reason}`;
  const names = Object.keys(file.entries).sort();
  if (names.length === 0) return `${header}: no agents`;
  const other = files.get(scope === "project" ? "global" : "project");
  const otherNames = other?.state === "ok" ? new Set(Object.keys(other.entries)) : new Set<string>();
  const catalog = roleCatalogOf(context);
  const lines = names.map((name) => {
    const entry = file.entries[name] as { description?: unknown; model?: unknown; tools?: unknown } | null;
    const notes: string[] = [];
    if (typeof entry?.model === "string") notes.push(`model ${entry.model}`);
    if (Array.isArray(entry?.tools)) notes.push(`tools ${entry.tools.join(", ")}`);
    if (otherNames.has(name)) notes.push(scope === "project" ? "overrides global" : "overridden by project");
    const winner = catalog?.get(name);
    if (winner && winner.source.kind !== "agents-json")
      notes.push(`shadowed by ${describeRoleSource(winner.source)}`);
    else if (winner && !winner.enabled) notes.push("disabled in config");
    else if (catalog && !winner) notes.push("skipped (invalid; see warnings)");
    const description = typeof entry?.description === "string" ? entry.description : "(no description)";
    return `- ${name}: ${description}${notes.length > 0 ? ` [${notes.join("; ")}]` : ""}`;
  });
  return [`${header}:`, ...lines].join("\n");
}
