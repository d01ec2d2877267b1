import { dirname } from "node:path";
import type { AgentTag } from "../events/agent-events.js";
import type { ToolKind } from "../tools/seam/tool-types.js";

/**
 * The host's answer to an approval prompt; a denial may carry the user's reason, which the model
 * reads with the refusal.
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

/** Asks the user (TUI dialog, CLI prompt). Absent in headless runs with nobody to ask. */
export type ApprovalCallback = (prompt: ApprovalPrompt) => Promise<ApprovalAnswer>;

export interface ApprovalRequest extends ApprovalPrompt {
  kind: ToolKind;
  /** The paths the call names; "allow always" for a file tool covers their folders only. */
  paths?: readonly string[];
}

export interface ApprovalBroker {
  /**
   * Whether `request` reaches someone who can answer (a host callback); false in headless runs,
   * where every request is denied without asking.
   */
  readonly canAsk: boolean;
  /** Whether an earlier "allow always" covers this request (only with remember_approvals). */
  isRemembered(request: ApprovalRequest): boolean;
  /** Asks the host; no host means denied, with a reason the model can act on. */
  request(request: ApprovalRequest): Promise<{ approved: boolean; reason: string }>;
  /** Drops every remembered approval (e.g. when the trust settings change). */
  forget(): void;
}

export interface ApprovalBrokerOptions {
  callback?: ApprovalCallback | undefined;
  rememberApprovals: boolean;
}

export const NO_APPROVER_REASON =
  "approval is required but nobody can answer (no interactive host); allow it with agent.trust (mode, allow_tools or auto_approve)";

/**
 * Routes approval prompts to the host and remembers "allow always" per session. A command
 * (`execute` kind) is remembered by its exact preview/input, so approving `npm test` forever
 * does not approve `rm -rf ~`; other tools are remembered by name.
 */
export function createApprovalBroker(options: ApprovalBrokerOptions): ApprovalBroker {
  const remembered = new Set<string>();
  return {
    canAsk: options.callback !== undefined,
    isRemembered: (request) => options.rememberApprovals && remembered.has(rememberKey(request)),
    async request(request) {
      if (!options.callback) return { approved: false, reason: NO_APPROVER_REASON };
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
      if (answer === "deny") return { approved: false, reason: "denied by the user" };
      if (typeof answer === "object") {
        const why = answer.deny.trim();
        return { approved: false, reason: why ? `denied by the user: ${why}` : "denied by the user" };
      }
      if (answer === "allow") return { approved: true, reason: "approved by the user" };
      if (!options.rememberApprovals) {
        return { approved: true, reason: "approved by the user (not remembered: remember_approvals is off)" };
      }
      remembered.add(rememberKey(request));
      return { approved: true, reason: "approved by the user for the rest of the session" };
    },
    forget: () => remembered.clear(),
  };
}

function rememberKey(request: ApprovalRequest): string {
  if (request.kind !== "execute") {
    const folders = [...new Set((request.paths ?? []).map((path) => dirname(path)))].sort();
    return folders.length === 0 ? request.tool : `${request.tool}\u0000${folders.join("\u0000")}`;
  }
  return `${request.tool}\u0000${request.preview ?? JSON.stringify(request.input)}`;
}
