import { type AgentNode, type AgentRunStatus, isFinished } from "./agent-tree-types.js";

/** Elapsed time on a clock face: 7_000 → "0:07", 754_000 → "12:34", 3_723_000 → "1:02:03". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** At most this many cells of a model name in a row. */
const MODEL_CELLS = 18;

/**
 * A model name short enough for a row: no provider prefix, no date stamp, no `claude-` family
 * name ("anthropic/claude-haiku-4-5-20251001" → "haiku-4-5").
 */
export function shortModel(model: string): string {
  const name = model
    .slice(model.lastIndexOf("/") + 1)
    .replace(/-(\d{8}|latest)$/, "")
    .replace(/^claude-/, "");
  return name.length > MODEL_CELLS ? `${name.slice(0, MODEL_CELLS - 1)}…` : name;
}

const STATUS_LABELS: Readonly<Record<AgentRunStatus, { full: string; short: string }>> = {
  pending: { full: "pending", short: "pending" },
  running: { full: "running", short: "running" },
  "awaiting-approval": { full: "awaiting approval", short: "approval" },
  idle: { full: "idle", short: "idle" },
  completed: { full: "completed", short: "done" },
  errored: { full: "errored", short: "error" },
  shutdown: { full: "shut down", short: "stopped" },
};

/** The status word of a row; a teammate says `working` where a subagent says `running`. */
export function statusLabel(
  status: AgentRunStatus,
  options: { short?: boolean; teammate?: boolean } = {},
): string {
  if (status === "running" && options.teammate) return "working";
  const labels = STATUS_LABELS[status];
  return options.short ? labels.short : labels.full;
}

/** "Opal (explorer)"; the nickname alone when the role adds nothing. */
export function agentName(node: Pick<AgentNode, "nickname" | "role">): string {
  return node.role && node.role !== node.nickname ? `${node.nickname} (${node.role})` : node.nickname;
}

/**
 * What the agent does now: its newest tool call with a short argument, "thinking" or "writing";
 * once it has ended, why it errored or the first line of its result.
 */
export function activityOf(node: AgentNode): string {
  if (isFinished(node.lifecycle) || node.lifecycle === "idle") return firstLine(node.detail ?? "");
  const tool = node.tools.at(-1);
  if (tool) return tool.summary ? `${tool.name} ${firstLine(tool.summary)}` : tool.name;
  return node.streaming ?? "";
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
