import { type AgentEvent, type AgentEventOf, assertNever, describeBudget } from "@nyzhi/core";
import { summarizeToolInput } from "../tools/summarize-tool-input.js";
import { safeSplitPoint } from "./split-streaming-text.js";
import { deliverQueued, reduceAction } from "./transcript-actions.js";
import {
  appendItem,
  discardStep,
  finalizeStream,
  insertBelow,
  isOwner,
  labelOf,
  retryMessage,
  shownDepth,
  updateItem,
} from "./transcript-state.js";
import { endTool, ensureToolRow, tail, updateTool } from "./transcript-tool-rows.js";
import type {
  TranscriptAction,
  TranscriptInput,
  TranscriptItem,
  TranscriptState,
} from "./transcript-types.js";

/**
 * Turns agent events and app actions into transcript items. Pure: the same inputs give the same
 * state (pass `at` for the clock). Only the owner's text and thinking are shown (the lead's, or in
 * an agent's own transcript that agent's); other agents' appear as lifecycle lines and tool rows
 * tagged with their nickname, so they never interleave with the owner's stream. The app runs this
 * one reducer for the lead's transcript and for each agent's (keyed by agent id, events as core
 * sent them), inside its session view (`reduceSessionView`). It returns the state object as it was
 * for an event it shows nothing of (another agent's text and thinking deltas, tool-call argument
 * deltas, questions, team state, usage), so the view reading it does not redraw for them.
 */
export function transcriptReducer(state: TranscriptState, input: TranscriptInput): TranscriptState {
  const at = input.at ?? Date.now();
  if (!("agent" in input)) return reduceAction(state, input as TranscriptAction, at);
  if (input.type === "tool-call-delta" || input.type === "question" || input.type === "team-state")
    return state;
  if (!isOwner(state, input.agent) && (input.type === "text-delta" || input.type === "reasoning-delta"))
    return state;
  return reduceEvent(state, input, at);
}

function reduceEvent(state: TranscriptState, event: AgentEvent, at: number): TranscriptState {
  const agentId = event.agent.agentId;
  const lead = isOwner(state, event.agent);
  switch (event.type) {
    case "turn-start":
      return lead ? { ...state, turnStartedAt: at } : state;
    case "step-start":
      return { ...finalizeStream(state, agentId), stepItems: { ...state.stepItems, [agentId]: [] } };
    case "text-delta":
      return lead ? streamText(state, event, "assistant") : state;
    case "reasoning-delta":
      return lead ? streamText(state, event, "thinking") : state;
    case "tool-call-start":
      return ensureToolRow(closeOpen(state, agentId), event, at, "pending");
    case "tool-call-delta":
      return state;
    case "tool-start": {
      const next = ensureToolRow(finalizeStream(state, agentId), event, at, "running");
      return updateTool(next, event.callId, (row) => ({
        ...row,
        status: "running",
        input: event.input,
        summary: summarizeToolInput(event.name, event.input),
        startedAt: at,
      }));
    }
    case "tool-output":
      return updateTool(state, event.callId, (row) => ({ ...row, output: tail(row.output + event.text) }));
    case "tool-end":
      return endTool(state, event, at);
    case "approval-requested": {
      const next = ensureToolRow(
        finalizeStream(state, agentId),
        { ...event, name: event.tool },
        at,
        "running",
      );
      return updateTool(next, event.callId, (row) => ({
        ...row,
        status: "awaiting-approval",
        input: event.input,
        summary: summarizeToolInput(event.tool, event.input),
      }));
    }
    case "approval-resolved":
      return updateTool(state, event.callId, (row) =>
        event.approved
          ? { ...row, status: "running", startedAt: at }
          : { ...row, status: "denied", reason: event.reason },
      );
    case "retry": {
      const next = event.discard
        ? discardStep(
            state,
            agentId,
            event.discard.toolCalls.map((c) => c.callId),
          )
        : state;
      return appendItem(next, (id) => ({
        kind: "retry",
        id,
        done: true,
        agent: labelOf(state, event.agent),
        message: retryMessage(event),
      }));
    }
    // The session's totals are the session view's (`reduceSessionView`), not a transcript's.
    case "usage":
    case "turn-complete":
    case "session-opened":
      return state;
    case "step-end":
      return finalizeStream(state, agentId);
    case "index-progress":
      return {
        ...state,
        index: {
          phase: event.phase,
          filesDone: event.filesDone,
          filesTotal: event.filesTotal,
          ...(event.message !== undefined ? { message: event.message } : {}),
        },
      };
    case "notice":
      return appendItem(state, (id) => ({
        kind: "notice",
        id,
        done: true,
        agent: lead ? undefined : labelOf(state, event.agent),
        message: event.message,
        tone: event.level ?? "info",
      }));
    case "hook-result":
      if (!event.summary) return state;
      return appendItem(state, (id) => ({
        kind: "notice",
        id,
        done: true,
        message: event.summary,
        tone: event.status === "ok" ? "info" : "warning",
      }));
    case "queued-delivered":
      return event.texts.reduce((next) => deliverQueued(next), state);
    case "question":
      return state;
    case "error": {
      const next = event.fatal ? finalizeStream(state, agentId) : state;
      return appendItem(next, (id) => ({
        kind: "error",
        id,
        done: true,
        agent: labelOf(state, event.agent),
        message: event.message,
      }));
    }
    case "subagent-spawned": {
      const label = {
        agentId: event.childId,
        depth: shownDepth(state, event.depth),
        nickname: event.nickname,
        role: event.role,
      };
      const next = { ...state, agents: { ...state.agents, [event.childId]: label } };
      const { callId } = event;
      // Shown under the call that started it (with the other children it started), not wherever
      // the list had got to: eight `task` rows read each with its own child.
      return insertBelow(
        next,
        callId === undefined ? undefined : state.tools[callId],
        (id) => ({
          kind: "subagent",
          id,
          done: true,
          event: "spawned",
          nickname: event.nickname,
          role: event.role,
          depth: label.depth,
          detail: event.unknownRole ? `${event.model} · unknown role, default used` : event.model,
          ...(callId === undefined ? {} : { callId }),
        }),
        (item) => item.kind === "subagent" && item.event === "spawned" && item.callId === callId,
      );
    }
    case "subagent-queued":
      return appendItem(state, (id) => ({
        kind: "subagent",
        id,
        done: true,
        event: "queued",
        nickname: "",
        role: event.role,
        depth: shownDepth(state, event.agent.depth + 1),
        detail: `waiting for a slot (${event.limit} running, #${event.waiting} in line)`,
      }));
    case "subagent-status-changed":
    case "team-state":
      return state;
    case "budget-warning":
    case "budget-exhausted":
      return appendItem(state, (id) => ({
        kind: "notice",
        id,
        done: true,
        agent: lead ? undefined : labelOf(state, event.agent),
        message: `${event.agent.depth === 0 ? "session budget" : "budget"} ${event.type === "budget-warning" ? "at 80%" : "exhausted, stopping after the current tool call"}: ${describeBudget(event.budget)}`,
        tone: "warning",
      }));
    case "subagent-completed":
      return appendItem(state, (id) => ({
        kind: "subagent",
        id,
        done: true,
        event: "completed",
        nickname: event.nickname,
        role: event.role,
        depth: state.agents[event.childId]?.depth ?? shownDepth(state, event.agent.depth + 1),
        detail: event.status,
      }));
    case "autopilot-phase":
      return appendItem(state, (id) => ({
        kind: "notice",
        id,
        done: true,
        message: autopilotLine(event),
        tone: event.status === "stopped" && event.reason !== "completed" ? "warning" : "info",
      }));
    case "turn-end":
      return endTurn(state, event, at);
    default:
      return assertNever(event);
  }
}

/** Appends a delta to the agent's open text or thinking item, opening one if needed. */
function streamText(
  state: TranscriptState,
  event: AgentEventOf<"text-delta"> | AgentEventOf<"reasoning-delta">,
  kind: "assistant" | "thinking",
): TranscriptState {
  const agentId = event.agent.agentId;
  const open = state.open[agentId] ?? {};
  const openId = open[kind];
  if (openId !== undefined) {
    const next = updateItem(state, openId, (item) =>
      item.kind === kind ? { ...item, text: item.text + event.delta } : item,
    );
    return kind === "assistant" ? splitLongText(next, agentId, openId) : next;
  }
  const agent = labelOf(state, event.agent);
  const next = appendItem(
    state,
    (id) =>
      kind === "assistant"
        ? { kind, id, done: false, agent, text: event.delta }
        : { kind, id, done: false, agent, text: event.delta, expanded: false },
    agentId,
  );
  const id = next.items.at(-1)!.id;
  // Text after thinking (or thinking after text) starts a new item below the other one.
  return { ...next, open: { ...next.open, [agentId]: { [kind]: id } } };
}

/**
 * Cuts a long streaming answer at its last safe point (`safeSplitPoint`): the part before becomes
 * a finished item (to the scrollback), the rest a new open item that continues it (drawn without a
 * new bullet). The finished part stays even if a retry then discards the step: it is already in
 * the terminal's scrollback, and the retry's line says the answer starts over.
 */
function splitLongText(state: TranscriptState, agentId: string, openId: string): TranscriptState {
  const item = state.items.findLast((candidate) => candidate.id === openId);
  if (item?.kind !== "assistant") return state;
  const split = safeSplitPoint(item.text);
  if (split < 0) return state;
  const head = item.text.slice(0, split).replace(/\n+$/, "");
  const finished = updateItem(state, openId, () => ({ ...item, text: head, done: true }));
  const next = appendItem(
    finished,
    (id) => ({ ...item, id, done: false, text: item.text.slice(split), continued: true }),
    agentId,
  );
  const id = next.items.at(-1)!.id;
  return { ...next, open: { ...next.open, [agentId]: { assistant: id } } };
}

/** Stops appending to the agent's open items, so later deltas go below what comes next. */
function closeOpen(state: TranscriptState, agentId: string): TranscriptState {
  if (state.open[agentId] === undefined) return state;
  const { [agentId]: _closed, ...open } = state.open;
  return { ...state, open };
}

/**
 * Marks an agent's unfinished items final; tool rows that never ended are shown as failed with
 * `reason`. With `lead`, items of no agent (user prompts, notices) and the owner's (the lead's:
 * depth 0) are closed; subagents that keep running in the background keep their live rows.
 */
function closeItems(
  state: TranscriptState,
  owner: { lead: true } | { agentId: string },
  reason: string,
): TranscriptState {
  const owns = (item: TranscriptItem): boolean => {
    const agent = "agent" in item ? item.agent : undefined;
    if ("lead" in owner) return agent === undefined || isOwner(state, agent);
    return agent?.agentId === owner.agentId;
  };
  const tools = { ...state.tools };
  const items = state.items.map((item) => {
    if (item.done || !owns(item)) return item;
    if (item.kind !== "tool") return { ...item, done: true };
    delete tools[item.callId];
    const finished = item.status === "done" || item.status === "failed" || item.status === "denied";
    return finished
      ? { ...item, done: true }
      : { ...item, done: true, status: "failed" as const, reason: item.reason ?? reason };
  });
  return { ...state, items, tools };
}

function endTurn(state: TranscriptState, event: AgentEventOf<"turn-end">, at: number): TranscriptState {
  const reason = event.reason === "aborted" ? "interrupted" : `turn ended (${event.reason})`;
  const agentId = event.agent.agentId;
  const own = isOwner(state, event.agent);
  const closed = closeItems(finalizeStream(state, agentId), own ? { lead: true } : { agentId }, reason);
  if (!own) return closed;
  return appendItem({ ...closed, turnStartedAt: undefined }, (id) => ({
    kind: "turn-footer",
    id,
    done: true,
    reason: event.reason,
    steps: event.steps,
    usage: event.usage,
    costUsd: event.costUsd,
    durationMs: state.turnStartedAt === undefined ? 0 : at - state.turnStartedAt,
  }));
}

/** "Autopilot: planning phase" / "Autopilot complete" / "Autopilot stopped in the qa phase (aborted) …". */
function autopilotLine(event: AgentEventOf<"autopilot-phase">): string {
  if (event.status === "started") return `Autopilot · ${event.phase} phase`;
  if (event.reason === "completed") return "Autopilot complete: the validation report is above.";
  if (event.phase === "cancelled") return "Autopilot cancelled: no further phase runs.";
  return `Autopilot stopped in the ${event.phase} phase (${event.reason}); /autopilot resume goes on from there.`;
}
