import type { PathUse, ToolKind } from "../tools/seam/tool-types.js";

/** One tool call, as the permission policy sees it. */
export interface PermissionRequest {
  tool: string;
  kind: ToolKind;
  mutates: boolean;
  input: unknown;
  /** Every path the call names (Tool.pathsOf); resolved to real paths by the policy. */
  paths: readonly PathUse[];
  preview?: string | undefined;
}

/**
 * A policy's verdict. `ask` carries whether a remembered "allow always" may answer it
 * (not for `always_ask` tools and control files), and the control file that made it ask, whose
 * reason then also explains a refused approval.
 */
export type PermissionDecision =
  | { action: "allow"; reason: string }
  | { action: "deny"; reason: string }
  | { action: "ask"; reason: string; rememberable: boolean; controlFile?: string };

/** Decides tool calls for one agent. Build with createPermissionPolicy or intersectPolicies. */
export interface PermissionPolicy {
  decide(request: PermissionRequest): Promise<PermissionDecision>;
}
