import type { AgentEvent, AgentEventOf } from "@nyzhi/core";
import { diffFromToolEnd } from "../diff/diff-from-tool.js";
import { finishedAgentToolOutput } from "../tools/describe-agent-tools.js";
import { summarizeToolInput } from "../tools/summarize-tool-input.js";
import { appendItem, insertBelow, labelOf, updateItem } from "./transcript-state.js";
import type { ToolItem, ToolStatus, TranscriptState } from "./transcript-types.js";

/** Above this many characters, a running tool's streamed output keeps only its tail. */
const MAX_STREAMED_OUTPUT = 8_000;

/** The streamed output of a running tool, cut to its last `MAX_STREAMED_OUTPUT` characters. */
export function tail(text: string): string {
  return text.length > MAX_STREAMED_OUTPUT ? text.slice(text.length - MAX_STREAMED_OUTPUT) : text;
}

/** Adds a row for a call seen for the first time (by `tool-call-start`, `tool-start` or later). */
export function ensureToolRow(
  state: TranscriptState,
  event: { agent: AgentEvent["agent"]; callId: string; name: string },
  at: number,
  status: ToolStatus,
): TranscriptState {
  if (state.tools[event.callId] !== undefined) return state;
  const next = appendItem(
    state,
    (id) => ({
      kind: "tool",
      id,
      done: false,
      callId: event.callId,
      name: event.name,
      agent: labelOf(state, event.agent),
      status,
      summary: "",
      input: undefined,
      output: "",
      startedAt: at,
      expanded: false,
    }),
    event.agent.agentId,
  );
  return { ...next, tools: { ...next.tools, [event.callId]: next.items.at(-1)!.id } };
}

/** Replaces the row of a call, if it has one. */
export function updateTool(
  state: TranscriptState,
  callId: string,
  update: (row: ToolItem) => ToolItem,
): TranscriptState {
  const id = state.tools[callId];
  if (id === undefined) return state;
  return updateItem(state, id, (item) => (item.kind === "tool" ? update(item) : item));
}

/** A call ended: its row is final, and a finished edit or write adds the diff it made. */
export function endTool(
  state: TranscriptState,
  event: AgentEventOf<"tool-end">,
  at: number,
): TranscriptState {
  const status: ToolStatus =
    event.refused === "denied" || event.refused === "not-allowed"
      ? "denied"
      : event.isError
        ? "failed"
        : "done";
  let next = ensureToolRow(state, event, at - event.durationMs, status);
  const rowId = next.tools[event.callId];
  const row = next.items.find((item) => item.id === rowId);
  const input = row?.kind === "tool" ? row.input : undefined;
  // The diff goes just below its row while the row is still live, then the row is final.
  const change =
    status === "done"
      ? diffFromToolEnd({ tool: event.name, input, output: event.output, metadata: event.metadata })
      : undefined;
  if (change) {
    next = insertBelow(next, rowId, (id) => ({
      kind: "diff",
      id,
      done: true,
      agent: labelOf(state, event.agent),
      path: change.path,
      diff: change.diff,
      created: change.created,
    }));
  }
  next = updateTool(next, event.callId, (row) => ({
    ...row,
    status,
    done: true,
    output:
      status === "done"
        ? finishedAgentToolOutput(event.name, event.output, (id) => state.agents[id]?.nickname)
        : event.output,
    durationMs: event.durationMs,
    reason: status === "denied" ? (row.reason ?? event.output) : row.reason,
    summary: row.summary || summarizeToolInput(event.name, row.input),
  }));
  const { [event.callId]: _ended, ...tools } = next.tools;
  return { ...next, tools };
}
