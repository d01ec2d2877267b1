import { getLogger } from "@nyzhi/config";
import type { LoadedRoles } from "../load-file-roles.js";
import { normalizeToolNames } from "../normalize-tool-names.js";
import type { RoleDefinition, RoleSource } from "../role-definition.js";
import type { RoleWarning } from "../role-errors.js";
import { roleBudget, roleIsolation } from "../role-run-settings.js";
import { AGENT_NAME_PATTERN, isKnownAgentModel } from "./agent-definition.js";
import { type AgentsJsonLocations, type AgentsJsonScope, PROJECT_AGENTS_JSON } from "./agents-json-paths.js";
import { readAgentsJson } from "./read-agents-json.js";

/**
 * Loads the global and the project agents.json and merges them by name, the project winning (it
 * records the global definition it shadows in `overrides`). Never throws: a malformed file is
 * skipped whole, an entry without a non-empty `description` and `prompt` (or with a bad name or
 * `tools`) is skipped, an unknown `model` is dropped (the role inherits); each is reported as a
 * warning and logged.
 */
export async function loadAgentsJson(locations: AgentsJsonLocations): Promise<LoadedRoles> {
  const warnings: RoleWarning[] = [];
  const byName = new Map<string, RoleDefinition>();
  for (const scope of ["global", "project"] as const) {
    const path = locations[scope];
    if (!path) continue;
    const label = scope === "project" ? PROJECT_AGENTS_JSON : path;
    const source: RoleSource = { kind: "agents-json", scope, path: label };
    const warn = (message: string, role?: string) => {
      warnings.push({ path: label, ...(role !== undefined && { role }), message });
      getLogger().warn({ path, role, scope }, message);
    };
    const file = await readAgentsJson(path);
    if (file.state === "missing") continue;
    if (file.state === "corrupt") {
      warn(
        `Skipped ${scope} agents.json ${label}: it ${file.reason}; fix or remove it (it is left untouched).`,
      );
      continue;
    }
    for (const [name, entry] of Object.entries(file.entries)) {
      const role = entryToRole(name, entry, source, (problem) =>
        warn(`${scope} agents.json ${label}: agent '${name}' ${problem}`, name),
      );
      if (!role) continue;
      const shadowed = byName.get(name);
      byName.set(name, shadowed ? { ...role, overrides: [shadowed.source] } : role);
    }
  }
  return { roles: [...byName.values()], warnings };
}

function entryToRole(
  name: string,
  entry: unknown,
  source: RoleSource & { scope: AgentsJsonScope },
  warn: (problem: string) => void,
): RoleDefinition | undefined {
  if (!AGENT_NAME_PATTERN.test(name)) {
    warn("skipped: the name must match [a-z0-9_-]+");
    return undefined;
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    warn("skipped: the definition is not an object");
    return undefined;
  }
  const { description, prompt, tools, model, auto_context: autoContext } = entry as Record<string, unknown>;
  const budget = roleBudget((entry as Record<string, unknown>).budget, warn);
  const isolation = roleIsolation((entry as Record<string, unknown>).isolation, warn);
  if (
    typeof description !== "string" ||
    !description.trim() ||
    typeof prompt !== "string" ||
    !prompt.trim()
  ) {
    warn("skipped: missing description or prompt");
    return undefined;
  }
  let allowedTools: string[] | undefined;
  if (tools !== undefined) {
    if (!Array.isArray(tools) || tools.some((tool) => typeof tool !== "string")) {
      warn("skipped: tools must be a list of tool names");
      return undefined;
    }
    const normalized = normalizeToolNames(tools as string[], "tools");
    for (const problem of normalized.problems) warn(problem);
    allowedTools = normalized.names;
  }
  let roleModel: string | undefined;
  if (model !== undefined) {
    if (typeof model === "string" && isKnownAgentModel(model.trim())) {
      roleModel = model.trim() === "inherit" ? undefined : model.trim();
    } else {
      warn(`model ${JSON.stringify(model)} ignored (unknown); it inherits the parent's model`);
    }
  }
  return {
    name,
    description: description.trim(),
    systemPrompt: prompt.trim(),
    readOnly: false,
    enabled: true,
    source,
    ...(allowedTools !== undefined && { allowedTools }),
    ...(roleModel !== undefined && { model: roleModel }),
    ...(typeof autoContext === "boolean" && { autoContext }),
    ...(budget !== undefined && { budget }),
    ...(isolation !== undefined && { isolation }),
  };
}
