import { parseFrontMatter, WITHOUT_ZOD_JIT } from "@nyzhi/config";
import { z } from "zod";
import { normalizeToolNames, splitToolList } from "./normalize-tool-names.js";
import type { RoleDefinition } from "./role-definition.js";
import type { RoleWarning } from "./role-errors.js";
import { roleBudget, roleIsolation } from "./role-run-settings.js";

/** Role names: what `spawn_agent` accepts as `agent_type` (Claude Code uses lowercase-hyphen). */
export const ROLE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const toolList = z.lazy(() => z.union([z.string(), z.array(z.string())]));

/**
 * Front matter of an agent file: Claude Code's keys (`tools`, `disallowedTools`, `model`, …) and
 * ours (`allowed_tools`, `read_only`, …). Keys Claude Code uses for things nyzhi does not have
 * (`color`, `permissionMode`, …) are accepted and ignored; anything else earns a warning.
 */
let built: ReturnType<typeof buildFrontMatterObject> | undefined;
/** The front matter's object schema, built on first use (shared by the parse and the key list). */
const frontMatterObject = () => {
  built ??= buildFrontMatterObject();
  return built;
};
const frontMatterSchema = z.lazy(frontMatterObject);

function buildFrontMatterObject() {
  return z.object({
    name: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    model: z.string().trim().min(1).optional(),
    max_steps: z.int().min(1).optional(),
    read_only: z.boolean().optional(),
    enabled: z.boolean().optional(),
    tools: toolList.optional(),
    allowed_tools: toolList.optional(),
    disallowedTools: toolList.optional(),
    disallowed_tools: toolList.optional(),
    mcp_servers: toolList.optional(),
    auto_context: z.boolean().optional(),
    // Checked by roleBudget / roleIsolation, which warn and drop a bad value instead of skipping the file.
    budget: z.unknown().optional(),
    isolation: z.unknown().optional(),
  });
}

let knownKeys: ReadonlySet<string> | undefined;
const IGNORED_CLAUDE_KEYS = new Set(["color", "permissionMode", "skills", "hooks"]);

export interface ParseRoleFileInput {
  text: string;
  /** Shown in warnings and kept as the role's source. */
  path: string;
  /** File name without `.md`: the role name when the front matter has no `name`. */
  stem: string;
}

export interface ParsedRoleFile {
  /** Undefined when the file was skipped; `warnings` says why. */
  role: RoleDefinition | undefined;
  warnings: RoleWarning[];
}

/**
 * Reads one agent file. The role's name is the front matter `name` (as in Claude Code), else the
 * file stem. The Markdown body is the system prompt (empty body → the generic prompt).
 * `model: inherit` means no override. Never rejects.
 */
export async function parseRoleFile(input: ParseRoleFileInput): Promise<ParsedRoleFile> {
  const { path } = input;
  const skip = (problem: string): ParsedRoleFile => ({
    role: undefined,
    warnings: [{ path, message: `Skipped agent file ${path}: ${problem}` }],
  });
  const parsed = await parseFrontMatter(input.text);
  if (!parsed.ok) return skip(`invalid front matter (${parsed.reason})`);
  const result = frontMatterSchema.safeParse(parsed.data, WITHOUT_ZOD_JIT);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    return skip(`front matter key '${issue.path.join(".") || "(root)"}': ${issue.message}`);
  }
  const data = result.data;
  const name = data.name ?? input.stem;
  if (!ROLE_NAME_PATTERN.test(name)) {
    return skip(`invalid role name '${name}' (letters, digits, '-' and '_', at most 64)`);
  }
  const warnings: RoleWarning[] = [];
  const warn = (problem: string) =>
    warnings.push({ path, role: name, message: `Agent file ${path}: ${problem}` });
  for (const key of Object.keys(parsed.data)) {
    knownKeys ??= new Set(Object.keys(frontMatterObject().shape));
    if (!knownKeys.has(key) && !IGNORED_CLAUDE_KEYS.has(key)) warn(`unknown key '${key}' ignored`);
  }
  const tools = (key: string, value: z.infer<typeof toolList> | undefined) => {
    if (value === undefined) return undefined;
    const normalized = normalizeToolNames(splitToolList(value), key);
    for (const problem of normalized.problems) warn(problem);
    return normalized.names;
  };
  if (data.tools !== undefined && data.allowed_tools !== undefined) {
    warn("both 'tools' and 'allowed_tools' are set; using 'allowed_tools'");
  }
  const allowedTools = tools(
    data.allowed_tools !== undefined ? "allowed_tools" : "tools",
    data.allowed_tools ?? data.tools,
  );
  const disallowedTools = tools("disallowed_tools", [
    ...(data.disallowedTools === undefined ? [] : splitToolList(data.disallowedTools)),
    ...(data.disallowed_tools === undefined ? [] : splitToolList(data.disallowed_tools)),
  ]);
  const mcpServers = data.mcp_servers === undefined ? undefined : splitToolList(data.mcp_servers);
  const budget = roleBudget(data.budget, warn);
  const isolation = roleIsolation(data.isolation, warn);
  const body = parsed.body.trim();
  const role: RoleDefinition = {
    name,
    description: data.description?.trim() || `Agent defined in ${path}`,
    readOnly: data.read_only ?? false,
    enabled: data.enabled ?? true,
    source: { kind: "file", path, scope: "project" },
    ...(body !== "" && { systemPrompt: body }),
    ...(data.model !== undefined && data.model !== "inherit" && { model: data.model }),
    ...(data.max_steps !== undefined && { maxSteps: data.max_steps }),
    ...(allowedTools !== undefined && { allowedTools }),
    ...(disallowedTools !== undefined && disallowedTools.length > 0 && { disallowedTools }),
    ...(mcpServers !== undefined && { mcpServers }),
    ...(data.auto_context !== undefined && { autoContext: data.auto_context }),
    ...(budget !== undefined && { budget }),
    ...(isolation !== undefined && { isolation }),
  };
  return { role, warnings };
}
