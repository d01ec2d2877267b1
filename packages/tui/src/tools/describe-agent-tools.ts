import { formatDuration } from "./format-duration.js";

function record(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const firstLine = (value: string) => {
  const [first = "", ...rest] = value.split("\n");
  return rest.length > 0 ? `${first} …` : first;
};

/** `name (role)` of a team member or teammate argument. */
function member(value: unknown): string {
  const fields = record(value);
  const name = text(fields.name) ?? "?";
  const role = text(fields.role);
  return role ? `${name} (${role})` : name;
}

/**
 * One line for the agent and team tools, after the tool's name in its row: who and what, not the
 * arguments as `key=value` (`wait` was `timeout_ms=180000 mode=all`). Undefined for other tools.
 */
export function summarizeAgentToolInput(tool: string, input: unknown): string | undefined {
  const fields = record(input);
  switch (tool) {
    case "wait": {
      const ids = Array.isArray(fields.ids) ? fields.ids.filter((id) => typeof id === "string") : [];
      const who = ids.length > 0 ? ids.join(", ") : "every subagent";
      const until = fields.mode === "all" ? "until all finish" : "until one finishes";
      const limit =
        typeof fields.timeout_ms === "number" ? ` · at most ${formatDuration(fields.timeout_ms)}` : "";
      return `${who} ${until}${limit}`;
    }
    case "team_create": {
      const members = Array.isArray(fields.members) ? fields.members.map(member) : [];
      return `${text(fields.name) ?? "team"}${members.length > 0 ? `: ${members.join(", ")}` : ""}`;
    }
    case "spawn_teammate":
      return `${member(fields)}: ${firstLine(text(fields.message) ?? "")}`;
    case "send_input":
    case "resume_agent":
      return `${text(fields.id) ?? "?"}: ${firstLine(text(fields.message) ?? "")}`;
    case "close_agent":
      return text(fields.id) ?? "";
    default:
      return undefined;
  }
}

/**
 * What the approval dialog shows of an agent or team tool's call, line by line (the team and each
 * member; the child's name, role and task), instead of its arguments as JSON. Undefined for others.
 */
export function describeAgentToolInput(tool: string, input: unknown): string | undefined {
  const fields = record(input);
  switch (tool) {
    case "team_create": {
      const members = Array.isArray(fields.members)
        ? fields.members.map((value) => `  ${member(value)}`)
        : [];
      return [
        `team ${text(fields.name) ?? "?"}`,
        ...(members.length > 0 ? ["members:", ...members] : []),
      ].join("\n");
    }
    case "spawn_teammate":
      return [`teammate ${member(fields)}`, text(fields.message) ?? ""].join("\n");
    case "spawn_agent":
      return [`${text(fields.agent_type) ?? "agent"}`, text(fields.message) ?? ""].join("\n");
    case "task":
      return [
        `${text(fields.subagent_type) ?? "agent"}: ${text(fields.description) ?? ""}`,
        text(fields.prompt) ?? "",
      ]
        .join("\n")
        .trimEnd();
    default:
      return summarizeAgentToolInput(tool, input);
  }
}

/** A tool's output as a person reads it: `spawn_agent`'s JSON result as the child it started. */
export function readableToolOutput(tool: string, output: string): string {
  if (tool !== "spawn_agent") return output;
  try {
    const result = record(JSON.parse(output));
    const name = text(result.agent_nickname) ?? text(result.agent_id) ?? "an agent";
    const role = text(result.role);
    const note = text(result.note);
    return [`started ${name}${role ? ` (${role})` : ""}`, ...(note ? [note] : [])].join("\n");
  } catch {
    return output;
  }
}

/**
 * What a finished agent tool's row shows under it, as a person reads it: `wait`'s JSON as one
 * line per agent by its nickname (`names`: child id → nickname); nothing under a `task` that
 * completed, since the child's own "completed" line below it carries the same result.
 */
export function finishedAgentToolOutput(
  tool: string,
  output: string,
  names: (agentId: string) => string | undefined,
): string {
  if (tool === "task") return "";
  if (tool !== "wait") return output;
  try {
    const result = record(JSON.parse(output));
    const statuses = Object.entries(record(result.status));
    const lines = statuses.map(([id, status]) => `${names(id) ?? id.slice(0, 8)}: ${text(status) ?? "?"}`);
    if (result.timed_out === true) lines.push("(timed out before they finished)");
    return lines.join("\n") || "no subagent to wait for";
  } catch {
    return output;
  }
}
