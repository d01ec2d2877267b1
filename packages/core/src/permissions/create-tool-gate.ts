import { errorMessage } from "@nyzhi/config";
import type { ToolGate, ToolGateDecision, ToolGateRequest } from "../agent-loop/agent-context.js";
import { SandboxError } from "../engines/sandbox/sandbox-error.js";
import type { PathGuard } from "../tools/seam/tool-types.js";
import type { ApprovalBroker } from "./approval-broker.js";
import { type ApprovalHooks, approveWithHooks } from "./approve-with-hooks.js";
import type { PermissionPolicy } from "./permission-types.js";

export interface ToolGateOptions {
  policy: PermissionPolicy;
  broker: ApprovalBroker;
  /** The sandbox's guard: every path of every call is checked against it first. */
  guard: PathGuard;
  /**
   * True under a read-only sandbox: MCP tools (`mcp__*`) run outside the sandbox, so the ones
   * that may change something (not marked read-only by their server) are denied.
   */
  readOnlySandbox?: boolean;
  /**
   * `permission_request` hooks answer an approval before the host is asked, and a `notification`
   * hook fires when the host is asked (see `approveWithHooks`). Absent: the broker alone answers.
   */
  hooks?: ApprovalHooks;
}

/**
 * The loop's ToolGate: sandbox path checks on every path argument, then the permission policy,
 * then a remembered "allow always", then the `permission_request` hooks, then the host (through
 * the broker). Fails closed: a path that cannot be checked denies the call.
 */
export function createToolGate(options: ToolGateOptions): ToolGate {
  const { policy, broker, guard } = options;
  const approvalRequest = (request: ToolGateRequest) => ({
    tool: request.tool.name,
    kind: request.tool.kind,
    input: request.input,
    preview: request.preview,
    agent: request.agent,
    paths: request.paths.map((use) => use.path),
    announce: request.announce,
  });
  // Why a call asked that "allow always" cannot silence (an always_ask rule, a control-file
  // write), so a refused approval tells the model and the user that, not just "no approver".
  const standingReasons = new WeakMap<ToolGateRequest, string>();
  return {
    async decide(request): Promise<ToolGateDecision> {
      if (options.readOnlySandbox && request.tool.mutates && request.tool.name.startsWith("mcp__")) {
        return {
          action: "deny",
          reason:
            "blocked by the sandbox: write operations are blocked in read-only sandbox (this MCP tool is not marked read-only by its server)",
        };
      }
      for (const use of request.paths) {
        try {
          await guard.resolve(use.path, use.access, use.configFile ? { configFile: true } : {});
        } catch (error) {
          const why =
            error instanceof SandboxError
              ? error.message
              : `cannot check ${use.path}: ${errorMessage(error)}`;
          return { action: "deny", reason: `blocked by the sandbox: ${why}` };
        }
      }
      const decision = await policy.decide({
        tool: request.tool.name,
        kind: request.tool.kind,
        mutates: request.tool.mutates,
        input: request.input,
        paths: request.paths,
        preview: request.preview,
      });
      if (decision.action === "deny") return { action: "deny", reason: decision.reason };
      if (decision.action === "allow") return { action: "allow" };
      if (!decision.rememberable) standingReasons.set(request, decision.reason);
      if (decision.rememberable && broker.isRemembered(approvalRequest(request))) return { action: "allow" };
      return { action: "ask" };
    },
    async approve(request) {
      const answer = await approveWithHooks(
        { ...approvalRequest(request), rememberable: !standingReasons.has(request) },
        {
          broker,
          hooks: options.hooks,
          signal: request.signal,
        },
      );
      const why = standingReasons.get(request);
      return answer.approved || why === undefined
        ? answer
        : { ...answer, reason: `${why}; ${answer.reason}` };
    },
  };
}
