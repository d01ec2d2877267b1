import { summarizeAgentToolInput } from "./describe-agent-tools.js";

/** Tools whose main argument is one path. */
const PATH_KEYS = ["file_path", "path"] as const;

function record(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function firstLine(value: string): string {
  const lines = value.split("\n");
  const first = lines[0] ?? "";
  return lines.length > 1 ? `${first} …` : first;
}

/** Files named by an `apply_patch` patch (`*** Update File: x`, `*** Add File: y` …). */
function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((match) => match[1]!.trim());
}

function pathOf(fields: Record<string, unknown>): string | undefined {
  for (const key of PATH_KEYS) {
    const value = text(fields[key]);
    if (value) return value;
  }
  return undefined;
}

/** `key=value` pairs of the scalar arguments, for tools without a dedicated summary. */
function genericSummary(fields: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string") parts.push(`${key}=${firstLine(value)}`);
    else if (typeof value === "number" || typeof value === "boolean") parts.push(`${key}=${value}`);
    if (parts.length === 3) break;
  }
  return parts.join(" ");
}

/**
 * One line describing a tool call's arguments, shown after the tool's name: the path for file
 * tools, the command for `bash`, the pattern for searches, `a → b` for moves. Never multi-line.
 */
export function summarizeToolInput(tool: string, input: unknown): string {
  const fields = record(input);
  switch (tool) {
    case "bash":
      return firstLine(text(fields.command) ?? "");
    case "grep": {
      const pattern = text(fields.pattern) ?? "";
      const where = text(fields.path);
      return where ? `${pattern} in ${where}` : pattern;
    }
    case "glob":
      return text(fields.pattern) ?? "";
    case "fuzzy_find":
    case "tool_search":
      return text(fields.query) ?? "";
    case "move_file":
    case "copy_file":
      return `${text(fields.source) ?? "?"} → ${text(fields.destination) ?? "?"}`;
    case "multi_edit": {
      const edits = Array.isArray(fields.edits) ? fields.edits : [];
      const files = [...new Set(edits.map((edit) => pathOf(record(edit))).filter(Boolean))];
      return `${edits.length} edit${edits.length === 1 ? "" : "s"} in ${files.join(", ") || "?"}`;
    }
    case "apply_patch":
      return patchFiles(text(fields.patch) ?? "").join(", ");
    case "web_fetch":
      return text(fields.url) ?? "";
    case "task":
      return `${text(fields.subagent_type) ?? "agent"}: ${firstLine(text(fields.description) ?? "")}`;
    case "spawn_agent":
      return `${text(fields.agent_type) ?? "agent"}: ${firstLine(text(fields.message) ?? "")}`;
    case "verify":
      return Array.isArray(fields.checks) ? fields.checks.join(", ") : "all checks";
    default:
      return summarizeAgentToolInput(tool, input) ?? pathOf(fields) ?? genericSummary(fields);
  }
}
