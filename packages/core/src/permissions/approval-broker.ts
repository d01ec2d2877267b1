import type { AgentTag } from "../events/agent-events.js";
import {
  type ApprovalRule,
  type ApprovalSubject,
  describeRuleMatch,
  matchesRule,
  ruleMatchFor,
} from "./approval-rules.js";

/**
 * The answer to an approval request; a denial may carry the user's reason, which the model reads
 * with the refusal.
 */
export type ApprovalAnswer = "allow" | "deny" | "allow-always" | { deny: string };

/** What the host shows the user. */
export interface ApprovalPrompt {
  tool: string;
  input: unknown;
  /** The command, a diff, or compact arguments. */
  preview: string | undefined;
  agent: AgentTag;
}

/**
 * Answers approval prompts in-process (tests, embedders of `createAgentRuntime`). Sessions do not
 * use it: their requests are `approval-requested` events answered with `session.answer(id, …)`.
 */
export type ApprovalCallback = (prompt: ApprovalPrompt) => Promise<ApprovalAnswer>;

export interface ApprovalRequest extends ApprovalPrompt, ApprovalSubject {
  /**
   * Called with the request's id when it is put to the host (after the `permission_request`
   * hooks): the loop emits `approval-requested` with it, and the host answers that id.
   */
  announce?: ((id: string) => void) | undefined;
  /** False when no "allow always" may answer it (an `always_ask` rule, a control file). Default true. */
  rememberable?: boolean | undefined;
}

export interface ApprovalBroker {
  /**
   * Whether `request` reaches someone who can answer (an interactive host or a callback); false in
   * headless runs, where every request is denied without asking.
   */
  readonly canAsk: boolean;
  /** Whether an earlier "allow always" of this session covers this request. */
  isRemembered(request: ApprovalSubject): boolean;
  /** Asks the host; no host means denied, with a reason the model can act on. */
  request(request: ApprovalRequest): Promise<{ approved: boolean; reason: string }>;
  /**
   * The host's answer to the request announced as `id`; "allow-always" also answers the waiting
   * requests the new rule covers. Returns false when no request waits under that id.
   */
  answer(id: string, answer: ApprovalAnswer): boolean;
  /** Denies every waiting request with `reason` (an interrupt, the host closing). */
  denyAll(reason: string): void;
  /** This session's "allow always" answers, oldest first. */
  rules(): readonly ApprovalRule[];
  /** Drops one remembered answer (`id`) or all of them (no id; the trust settings changed). */
  forget(id?: string): boolean;
}

export interface ApprovalBrokerOptions {
  /** In-process answers (tests, embedders); without it requests wait for `answer` when `interactive`. */
  callback?: ApprovalCallback | undefined;
  /** A host answers `approval-requested` events (the app, a library host). */
  interactive?: boolean | undefined;
  /** Told when an "allow always" answer adds a rule (the session says so to the person). */
  onRule?: ((rule: ApprovalRule) => void) | undefined;
}

export const NO_APPROVER_REASON =
  "approval is required but nobody can answer (no interactive host); allow it with agent.trust (mode, allow_tools or auto_approve)";

const ALWAYS_REASON = "approved by the user for the rest of the session";

interface Waiting {
  request: ApprovalRequest;
  resolve: (result: { approved: boolean; reason: string }) => void;
}

/**
 * Routes approval requests to the host and keeps the session's "allow always" rules (see
 * `approval-rules.ts`): the one engine that decides what an earlier answer covers.
 */
export function createApprovalBroker(options: ApprovalBrokerOptions): ApprovalBroker {
  const rules: ApprovalRule[] = [];
  const waiting = new Map<string, Waiting>();
  let nextRule = 1;
  let nextRequest = 1;
  const covered = (subject: ApprovalSubject) => rules.some((rule) => matchesRule(rule, subject));

  const settle = (request: ApprovalRequest, answer: ApprovalAnswer) => {
    if (answer === "deny") return { approved: false, reason: "denied by the user" };
    if (typeof answer === "object") {
      const why = answer.deny.trim();
      return { approved: false, reason: why ? `denied by the user: ${why}` : "denied by the user" };
    }
    if (answer === "allow") return { approved: true, reason: "approved by the user" };
    if (request.rememberable === false)
      return { approved: true, reason: "approved by the user (asked every time: not remembered)" };
    const match = ruleMatchFor(request);
    const rule: ApprovalRule = {
      id: `rule-${nextRule++}`,
      tool: request.tool,
      match,
      description: describeRuleMatch(request.tool, match),
      agent: request.agent,
    };
    rules.push(rule);
    options.onRule?.(rule);
    // The waiting requests the new rule covers are answered with it.
    for (const [id, entry] of waiting) {
      if (entry.request.rememberable === false || !matchesRule(rule, entry.request)) continue;
      waiting.delete(id);
      entry.resolve({ approved: true, reason: ALWAYS_REASON });
    }
    return { approved: true, reason: ALWAYS_REASON };
  };

  return {
    canAsk: options.callback !== undefined || options.interactive === true,
    isRemembered: covered,
    async request(request) {
      const id = `approval-${nextRequest++}`;
      request.announce?.(id);
      if (options.callback) {
        let answer: ApprovalAnswer;
        try {
          answer = await options.callback({
            tool: request.tool,
            input: request.input,
            preview: request.preview,
            agent: request.agent,
          });
        } catch (error) {
          return { approved: false, reason: `the approval prompt failed: ${String(error)}` };
        }
        return settle(request, answer);
      }
      if (!options.interactive) return { approved: false, reason: NO_APPROVER_REASON };
      return new Promise((resolve) => waiting.set(id, { request, resolve }));
    },
    answer(id, answer) {
      const entry = waiting.get(id);
      if (!entry) return false;
      waiting.delete(id);
      entry.resolve(settle(entry.request, answer));
      return true;
    },
    denyAll(reason) {
      const all = [...waiting.values()];
      waiting.clear();
      for (const entry of all) entry.resolve({ approved: false, reason });
    },
    rules: () => [...rules],
    forget(id) {
      if (id === undefined) {
        const had = rules.length > 0;
        rules.length = 0;
        return had;
      }
      const at = rules.findIndex((rule) => rule.id === id);
      if (at < 0) return false;
      rules.splice(at, 1);
      return true;
    },
  };
}
