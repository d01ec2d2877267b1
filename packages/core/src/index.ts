// Agent loop and events
export {
  type AgentContext,
  allowAllGate,
  type ToolCallHooks,
  type ToolGate,
  type ToolGateDecision,
  type ToolGateRequest,
} from "./agent-loop/agent-context.js";
export { LEAD_PERSONA, leadPersonaFragment } from "./agent-loop/lead-persona.js";
export { DEFAULT_MAX_STEPS, runTurn, type TurnInput, type TurnResult } from "./agent-loop/run-turn.js";
export {
  assembleSystemPrompt,
  customInstructionsFragment,
  type EnvironmentFacts,
  environmentFragment,
  PROMPT_FRAGMENT_ORDER,
  type PromptFragment,
  type PromptFragmentKind,
  rulesFragment,
} from "./agent-loop/system-prompt.js";
// Change tracking and undo
export { ChangeTracker, type ChangeTrackerOptions, type TrackedChange } from "./context/change-tracker.js";
export { formatUndoReport, type UndoReport } from "./context/checkpoints.js";
export {
  type AgentEvent,
  type AgentEventOf,
  type AgentEvents,
  type AgentEventType,
  type AgentTag,
  assertNever,
  type TurnEndReason,
} from "./events/agent-events.js";
export { EventQueue } from "./events/event-queue.js";
// Permissions and sandbox
export {
  type ApprovalAnswer,
  type ApprovalBroker,
  type ApprovalCallback,
  type ApprovalPrompt,
  createApprovalBroker,
  NO_APPROVER_REASON,
} from "./permissions/approval-broker.js";
export { createToolGate, type ToolGateOptions } from "./permissions/create-tool-gate.js";
export { intersectPolicies } from "./permissions/intersect-policies.js";
export { createPermissionPolicy, type PermissionPolicyOptions } from "./permissions/permission-policy.js";
export type {
  PermissionDecision,
  PermissionPolicy,
  PermissionRequest,
} from "./permissions/permission-types.js";
export { parseTrustMode, TRUST_MODES, type TrustMode, type TrustSettings } from "./permissions/trust-mode.js";
// Runtime for hosts
export {
  type AgentHost,
  type AgentRuntime,
  type CreateAgentRuntimeOptions,
  createAgentRuntime,
} from "./runtime/create-agent-runtime.js";
export {
  createModelResolver,
  type ModelResolverOptions,
  type ModelSpec,
  parseModelSpec,
  type ResolvedModel,
} from "./runtime/model-resolver.js";
export { type BwrapCommandOptions, buildBwrapCommand } from "./sandbox/build-bwrap-command.js";
export { type BwrapStatus, detectBwrap } from "./sandbox/detect-bwrap.js";
export { createPathGuard, type PathGuardOptions, type SandboxPathGuard } from "./sandbox/path-guard.js";
export { SandboxError } from "./sandbox/sandbox-error.js";
export { parseSandboxLevel, SANDBOX_LEVELS, type SandboxLevel } from "./sandbox/sandbox-level.js";
export { SANDBOX_SERVICE, type SandboxSettings } from "./sandbox/sandbox-settings.js";
export { exportSessionJson, exportSessionMarkdown } from "./sessions/export-session.js";
// Sessions
export { SessionError, SessionStore } from "./sessions/session-store.js";
export { titleFromMessages } from "./sessions/session-title.js";
export type { SavedAgentThread, SessionMeta, SessionRecord } from "./sessions/session-types.js";
// Tools
export { builtinTools } from "./tools/builtin-tools.js";
export {
  DEFAULT_MAX_OUTPUT_CHARS,
  defineTool,
  type Tool,
  type ToolDefinition,
  ToolError,
} from "./tools/define-tool.js";
export { unifiedDiff } from "./tools/files/unified-diff.js";
export {
  listNotepads,
  NOTEPAD_CATEGORIES,
  type NotepadCategory,
  readNotepad,
} from "./tools/session/notepad.js";
export {
  TODO_STATUSES,
  TODO_STORE_SERVICE,
  type TodoItem,
  type TodoStatus,
  TodoStore,
} from "./tools/session/todo-store.js";
export { filterToolNames, matchesToolPattern, ToolRegistry } from "./tools/tool-registry.js";
export type {
  ChangeRecorder,
  FileChange,
  PathAccess,
  PathGuard,
  PathUse,
  ToolContext,
  ToolKind,
  ToolProgress,
  ToolResult,
  ToolServices,
} from "./tools/tool-types.js";
export { truncateEnd, truncateText } from "./tools/truncate-text.js";
