import { type LoadedConfig, loadRules } from "@nyzhi/config";
import type { Usage } from "@nyzhi/provider";
import type { TurnInput } from "../agent-loop/run-turn.js";
import type { TodoStore } from "../planning/todo-store.js";
import type { AgentRuntime } from "../runtime/create-agent-runtime.js";
import type { SessionRecord } from "../saved-sessions/session-types.js";
import { detectChecks, type VerifyCheck } from "../tools/shell/detect-checks.js";
import { type MapResult, mapCodebase } from "../workflows/codebase-map.js";
import {
  messageText,
  newestHandoff,
  parseHandoffTodos,
  resumeWorkPrompt,
  writeHandoff,
} from "../workflows/handoff.js";
import { saveLearnedSkill } from "../workflows/learn-skill.js";
import { WorkflowError } from "../workflows/workflow-error.js";
import {
  initDeepPrompt,
  quickTaskPrompt,
  refactorPrompt,
  teamTaskPrompt,
  verifyPrompt,
} from "../workflows/workflow-prompts.js";
import type { SessionAgents } from "./session-agents.js";
import type { SessionModes, ThinkingSetting } from "./session-modes.js";

/** What `/status` shows: where the session stands. */
export interface SessionStatus {
  sessionId: string;
  providerId: string;
  modelId: string;
  trustMode: string;
  mode: string;
  thinking: ThinkingSetting;
  /** The config files read, in the order they apply. */
  configFiles: string[];
  /** The project's rules files given to the model (`AGENTS.md` first), relative to the root. */
  rulesFiles: string[];
  /** Since this process opened the session, ms. */
  durationMs: number;
  usage: Usage;
  costUsd: number;
}

/** Where the session's code index stands (`/index status`). */
export interface IndexState {
  /** `index.enabled` and the session has an index. */
  enabled: boolean;
  /** Turned off by `/index off`. */
  off: boolean;
  started: boolean;
  building: boolean;
  built: boolean;
  root: string | undefined;
}

/**
 * The command workflows of a session (`/status`, `/retry`, `/handoff`, `/resume-work`, `/map`,
 * `/learn`, `/verify`, `/quick`, `/refactor`, `/init-deep`, `/team <N>`): the work is here, in
 * core, so `nyz exec` could do the same; hosts render what these return and send the prompts.
 */
export interface SessionWorkflows {
  status(): Promise<SessionStatus>;
  /** The last prompt the lead ran (as the person sent it, prefixes kept); undefined before any. */
  lastPrompt(): string | undefined;
  /** Writes `.nyzhi/handoff-<time>.md` (project, branch, model, todos, last messages, open questions); its path. */
  handoff(): Promise<string>;
  /** The newest handoff: its todos restored into the lead's list, and the prompt that resumes it. */
  resumeWork(): Promise<{ path: string; prompt: string; todos: number }>;
  /** Four read-only subagents in parallel write `.nyzhi/map/{STACK,ARCHITECTURE,CONVENTIONS,CONCERNS}.md`. */
  map(options?: {
    signal?: AbortSignal;
    onStarted?: (file: string, nickname: string) => void;
  }): Promise<MapResult[]>;
  /** Saves a skill from this session as `.nyzhi/skills/<name>.md`; its path. */
  learn(name: string): Promise<string>;
  /** `[agent.verify].checks`, else the checks detected from the project's manifest. */
  checks(): Promise<VerifyCheck[]>;
  /** The code index (`/index`): its state, and turning it off for this session. */
  index: {
    status(): Promise<IndexState>;
    off(): Promise<boolean>;
  };
  /** The prompts of the prompt workflows. */
  prompts: {
    quick(task: string): string;
    refactor(target: string): string;
    initDeep(): string;
    team(count: number, task: string): string;
    verify(checks: readonly VerifyCheck[]): string;
  };
}

export interface SessionWorkflowParts {
  record: SessionRecord;
  loaded: LoadedConfig;
  runtime: AgentRuntime;
  modes: SessionModes;
  agents: SessionAgents;
  todos: TodoStore;
  model(): { providerId: string; modelId: string };
  usage(): { usage: Usage; costUsd: number };
  /** The last input `runTurn` ran, if any this process. */
  lastInput(): TurnInput | undefined;
  openedAt: number;
  /** Share of the lead's context window in use, when its window is known. */
  contextPercent(): number | undefined;
}

function inputText(input: TurnInput): string {
  if (typeof input === "string") return input;
  return input.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The session's workflows (see `SessionWorkflows`). */
export function sessionWorkflows(parts: SessionWorkflowParts): SessionWorkflows {
  const root = parts.loaded.projectRoot;
  return {
    async status() {
      const rules = await loadRules(root).catch(() => undefined);
      const { usage, costUsd } = parts.usage();
      const model = parts.model();
      return {
        sessionId: parts.record.meta.id,
        providerId: model.providerId,
        modelId: model.modelId,
        trustMode: parts.modes.trustMode(),
        mode: parts.modes.mode,
        thinking: parts.modes.thinking,
        configFiles: parts.loaded.files.map((file) => file.path),
        rulesFiles: rules?.sections.map((section) => section.label) ?? [],
        durationMs: Date.now() - parts.openedAt,
        usage,
        costUsd,
      };
    },
    lastPrompt() {
      const last = parts.lastInput();
      if (last !== undefined) return inputText(last);
      // A resumed session: its last request as saved (plain text requests only).
      const saved = parts.record.messages.findLast(
        (message) => message.role === "user" && typeof message.content === "string",
      );
      return saved ? messageText(saved) : undefined;
    },
    async handoff() {
      const model = parts.model();
      return writeHandoff({
        projectRoot: root,
        providerId: model.providerId,
        modelId: model.modelId,
        todos: parts.todos.list(),
        messages: parts.record.messages,
        changedFiles: [...new Set(parts.runtime.tracker.changes().map((change) => change.path))],
        contextPercent: parts.contextPercent(),
      });
    },
    async resumeWork() {
      const found = await newestHandoff(root);
      if (!found)
        throw new WorkflowError(
          "no_handoff",
          `No handoff note in ${root}/.nyzhi (write one with /handoff at the end of a session).`,
        );
      const todos = parseHandoffTodos(found.text);
      if (todos.length > 0) await parts.todos.merge(todos);
      return { path: found.path, prompt: resumeWorkPrompt(found.path, found.text), todos: todos.length };
    },
    map(options = {}) {
      return mapCodebase(
        {
          spawn: (request) => parts.agents.spawn(request),
          finish: (agentId, signal) => parts.agents.finish(agentId, signal),
        },
        root,
        options,
      );
    },
    learn: (name) => saveLearnedSkill(root, name, parts.record.messages),
    async checks() {
      const configured = parts.loaded.config.agent.verify?.checks ?? [];
      return configured.length > 0 ? [...configured] : detectChecks(root);
    },
    index: {
      async status() {
        const index = parts.runtime.codeIndex;
        if (!index)
          return {
            enabled: false,
            off: false,
            started: false,
            building: false,
            built: false,
            root: undefined,
          };
        return {
          enabled: true,
          off: index.off,
          started: index.started,
          building: index.building,
          built: await index.isBuilt(),
          root: index.root,
        };
      },
      async off() {
        const index = parts.runtime.codeIndex;
        if (!index || index.off) return false;
        await index.turnOff();
        return true;
      },
    },
    prompts: {
      quick: quickTaskPrompt,
      refactor: refactorPrompt,
      initDeep: initDeepPrompt,
      team: teamTaskPrompt,
      verify: verifyPrompt,
    },
  };
}
