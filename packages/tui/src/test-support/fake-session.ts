import { tmpdir } from "node:os";
import type { TrustMode } from "@nyzhi/config";
import {
  type AgentEvent,
  type AgentTag,
  loadCommandCatalogue,
  type OpenedSession,
  type SessionAgentParts,
  SessionModes,
  sessionAgents,
  type TurnInput,
  type TurnResult,
} from "@nyzhi/core";

/** Test doubles of core's session, for the app's component tests. */
export const LEAD: AgentTag = { agentId: "lead", depth: 0 };
export const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export type Turn = (input: TurnInput, signal: AbortSignal) => AsyncGenerator<AgentEvent, TurnResult>;

/** What the app called on a fake session. */
export interface FakeCalls {
  turns: TurnInput[];
  queued: string[];
  closed: number;
  closedAgents: string[];
  models: string[];
  saved: number;
  /** `session.answer(id, reply)` calls, in order. */
  answers: { id: string; reply: unknown }[];
  /** `session.dismissPending(reason)` calls. */
  dismissed: string[];
}

export interface FakeSessionOptions {
  id?: string;
  messages?: OpenedSession["record"]["messages"];
  /** The subagent manager behind `session.agents` (default: one child of the lead, closed on request). */
  manager?: Record<string, unknown>;
  /** The team service behind `session.agents` (default: none). */
  teams?: Record<string, unknown>;
  /** `session.changes` (the change tracker). */
  changes?: Record<string, unknown>;
  /** `session.todos`. */
  todos?: Record<string, unknown>;
  /** Merged over the fake's `config.agent`. */
  agentConfig?: Record<string, unknown>;
  projectRoot?: string;
  /** `session.hasTeamMail()` (default: no mail). */
  hasTeamMail?: () => Promise<boolean>;
}

/** A session whose turns are scripted; records what the app called. */
export function fakeSession(turn: Turn, options: FakeSessionOptions = {}) {
  let trustOverride: TrustMode | undefined;
  const queue: string[] = [];
  const calls: FakeCalls = {
    turns: [],
    queued: [],
    closed: 0,
    closedAgents: [],
    models: [],
    saved: 0,
    answers: [],
    dismissed: [],
  };
  let model = { providerId: "anthropic", modelId: "test-model" };
  const thread = [...(options.messages ?? [])];
  const session = {
    id: options.id ?? "s1",
    record: {
      meta: {
        id: options.id ?? "s1",
        title: "",
        createdAt: "2026-11-26T10:00:00.000Z",
        updatedAt: "2026-11-26T10:00:00.000Z",
        messageCount: thread.length,
        provider: "anthropic",
        model: "test-model",
      },
      messages: thread,
    },
    config: {
      agent: {
        trust: { mode: "limited" },
        sandbox: "workspace-write",
        hooks: [],
        commands: [],
        ...options.agentConfig,
      },
    },
    loaded: { projectTrusted: false, warnings: [] },
    autopilot: {
      state: async () => undefined,
      // biome-ignore lint/correctness/useYield: the fake runs no phase.
      run: async function* () {
        return { reason: "completed", steps: 0, text: "No autopilot run here.", usage, costUsd: 0 };
      },
      running: () => false,
      cancel: async () => "No autopilot run here.",
    },
    projectRoot: options.projectRoot ?? "/work/project",
    get model() {
      return model;
    },
    mcp: { manager: { statuses: () => [] } },
    agents: sessionAgents({
      leadId: LEAD.agentId,
      manager: (options.manager ?? {
        childrenOf: (id: string) => (id === "lead" ? ["child-1"] : []),
        close: (id: string) => {
          calls.closedAgents.push(id);
          return { status: "shutdown", nickname: "scout" };
        },
      }) as unknown as SessionAgentParts["manager"],
      teams: options.teams as unknown as SessionAgentParts["teams"],
    }),
    changes: options.changes ?? {},
    todos: options.todos ?? { list: () => [], format: () => "" },
    warmUpIndex: () => {},
    contextUsage: () => ({
      systemTokens: 4,
      toolTokens: 0,
      threadTokens: thread.length,
      toolCount: 0,
      messageCount: thread.length,
      contextWindow: undefined,
      percentUsed: undefined,
      compactAtPercent: 85,
      compactAtTokens: undefined,
    }),
    runTurn(input: TurnInput, turnOptions: { signal?: AbortSignal } = {}) {
      calls.turns.push(input);
      return turn(input, turnOptions.signal ?? new AbortController().signal);
    },
    queueMessage(text: string) {
      calls.queued.push(text);
      queue.push(text);
      return queue.length;
    },
    takeQueued: () => queue.splice(0),
    // No `@path` resolution here (core's tests and the e2e tests show it): the text goes as typed.
    prepareMessage: async (text: string) => ({ input: text, attachments: [], refused: [] }),
    acceptsImages: () => true,
    prompts: () => [],
    // The project's real catalogue (custom commands and skills under projectRoot; the test home's).
    commands: () =>
      loadCommandCatalogue({
        root: session.projectRoot,
        config: session.config as unknown as OpenedSession["config"],
        env: process.env,
        mcp: undefined,
        warn: () => {},
      }),
    expandCommand: async (prompt: string) => {
      if (prompt.startsWith("/review")) return "Review this code";
      throw Object.assign(new Error(`Unknown command ${prompt}`), { code: "usage" });
    },
    setModel: async (spec: string) => {
      calls.models.push(spec);
      const [providerId, modelId] = spec.includes("/") ? spec.split("/", 2) : ["anthropic", spec];
      model = { providerId: providerId!, modelId: modelId! };
      return model;
    },
    usage: () => ({ usage, costUsd: 0 }),
    // The real mode state over a stand-in lead context: Shift+Tab, /think and /thinking work.
    modes: new SessionModes({
      context: { planMode: false } as never,
      projectRoot: options.projectRoot ?? tmpdir(),
      sessionId: "fake",
      setTrustMode: (mode) => {
        trustOverride = mode;
      },
      trustMode: () => trustOverride ?? "off",
      modelInfo: () => undefined,
      startInPlan: false,
    }),
    budget: () => undefined,
    answer: (id: string, reply: unknown) => {
      calls.answers.push({ id, reply });
      return true;
    },
    dismissPending: (reason: string) => {
      calls.dismissed.push(reason);
    },
    permissions: { list: () => [], forget: () => false },
    hasTeamMail: options.hasTeamMail ?? (async () => false),
    save: async () => {
      calls.saved += 1;
    },
    close: async () => {
      calls.closed += 1;
    },
  };
  return { session: session as unknown as OpenedSession, calls, queue };
}

export function turnEnd(reason: TurnResult["reason"] = "completed"): AgentEvent {
  return { type: "turn-end", agent: LEAD, turnId: "t", reason, steps: 1, usage, costUsd: 0, text: "" };
}

/** A turn that streams `chunks` and ends. */
export function answering(...chunks: string[]): Turn {
  return async function* () {
    yield { type: "turn-start", agent: LEAD, turnId: "t", input: "" };
    yield { type: "step-start", agent: LEAD, step: 1 };
    for (const delta of chunks) yield { type: "text-delta", agent: LEAD, delta };
    yield { type: "step-end", agent: LEAD, step: 1, finishReason: "stop", toolCalls: 0 };
    yield turnEnd();
    return { reason: "completed", steps: 1, text: chunks.join(""), usage, costUsd: 0 };
  };
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Polls `check` every 5 ms; fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
