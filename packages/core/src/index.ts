// Credentials, for hosts that import only core (the app's /login, which saves a key as `nyz login` does, and /doctor).
export {
  type AuthStatusRow,
  authStatus,
  defaultOAuthProviders,
  formatAuthStatus,
  type LoginIo,
  type LoginResult,
  login,
  MissingCredentialError,
  openCredentialStore,
} from "@nyzhi/auth";
// The model registry, for hosts that import only core (the app's /model picker).
export { listModels, type ModelInfo } from "@nyzhi/provider";
// Agent loop and events
export {
  type AgentContext,
  allowAllGate,
  type CompletedStep,
  type StepRetryPolicy,
  type ToolCallHooks,
  type ToolGate,
  type ToolGateDecision,
  type ToolGateRequest,
} from "./agent-loop/agent-context.js";
export { DELEGATION_GUIDANCE, delegationGuidanceFragment } from "./agent-loop/delegation-guidance.js";
export { LEAD_PERSONA, leadPersonaFragment } from "./agent-loop/lead-persona.js";
export { PLAN_MODE_INSTRUCTIONS } from "./agent-loop/plan-mode.js";
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
export {
  AUTOPILOT_PHASES,
  type AutopilotState,
  AutopilotStateError,
  autopilotStatePath,
  describeAutopilot,
} from "./autopilot/autopilot-state.js";
export { buildBriefing } from "./briefing/build-briefing.js";
export { buildSharedContext } from "./briefing/build-shared-context.js";
export { forkTurns } from "./briefing/fork-turns.js";
export { latestWisdom } from "./briefing/latest-wisdom.js";
export { renderChildSystemPrompt } from "./briefing/render-child-system-prompt.js";
export { BRIEFING_LIMITS, type SharedContext } from "./briefing/shared-context.js";
export { BudgetLedger, type BudgetLedgerOptions, budgetTokens } from "./budgets/budget-ledger.js";
export {
  BUDGET_WARNING_FRACTION,
  type BudgetDimension,
  type BudgetLimits,
  type BudgetReport,
  type BudgetScope,
  type BudgetSpec,
  type BudgetSpent,
  describeBudget,
} from "./budgets/budget-types.js";
// Change tracking and undo
export { ChangeTracker, type ChangeTrackerOptions, type TrackedChange } from "./changes/change-tracker.js";
export { formatUndoReport, type UndoReport } from "./changes/checkpoints.js";
export { type AutoContextOptions, autoContextFragment } from "./code-index/auto-context.js";
export {
  CodeIndexService,
  type CodeIndexServiceOptions,
  type EmbeddingUsage,
  type IndexActivity,
} from "./code-index/code-index-service.js";
export { EMBEDDING_PRICES_PER_MTOK, embeddingCostUsd } from "./code-index/embedding-prices.js";
export type { IndexProcessCommand } from "./code-index/index-process-opener.js";
export type { CustomCommand } from "./commands/custom-command.js";
export { expandCommand } from "./commands/expand-command.js";
export { loadCustomCommands } from "./commands/load-custom-commands.js";
export { parseSlashInput } from "./commands/parse-slash-input.js";
// Context: compaction, memory, skills, custom commands
export { compactIfNeeded, describeCompactionStep } from "./compaction/compact-if-needed.js";
export { compactThread } from "./compaction/compact-thread.js";
export { contextDirs } from "./compaction/context-dirs.js";
export { estimateTokens } from "./compaction/estimate-tokens.js";
export { assertValidThread, validateThread } from "./compaction/validate-thread.js";
export type { DoctorCheck, DoctorReport, DoctorState } from "./doctor/doctor-types.js";
export { formatDoctorReport } from "./doctor/format-doctor-report.js";
export { MIN_NODE_MAJOR, type RunDoctorOptions, runDoctor } from "./doctor/run-doctor.js";
// Architecture knowledge
export { analyzeProject } from "./engines/architecture/analyze-project.js";
export {
  ARCHITECTURE_CACHE_FILE,
  type ArchitectureKnowledge,
  getArchitectureKnowledge,
} from "./engines/architecture/architecture-cache.js";
export type {
  CallGraphSummary,
  DataModel,
  DetectedPattern,
  Endpoint,
  HubModule,
  MiddlewareFact,
  ProjectAnalysis,
  ProjectOverview,
} from "./engines/architecture/project-analysis.js";
export {
  ARCHITECTURE_LIMITS,
  ARCHITECTURE_SECTIONS,
  type ArchitectureSection,
  renderArchitecture,
} from "./engines/architecture/render-architecture.js";
export { type BwrapCommandOptions, buildBwrapCommand } from "./engines/sandbox/build-bwrap-command.js";
export { type BwrapStatus, detectBwrap } from "./engines/sandbox/detect-bwrap.js";
export {
  createPathGuard,
  type PathGuardOptions,
  type SandboxPathGuard,
} from "./engines/sandbox/path-guard.js";
export { SandboxError } from "./engines/sandbox/sandbox-error.js";
export { parseSandboxLevel, SANDBOX_LEVELS, type SandboxLevel } from "./engines/sandbox/sandbox-level.js";
export { SANDBOX_SERVICE, type SandboxSettings } from "./engines/sandbox/sandbox-settings.js";
export { WEB_ACCESS_SERVICE, type WebAccessSettings } from "./engines/web/web-access.js";
export {
  type AgentEvent,
  type AgentEventOf,
  type AgentEvents,
  type AgentEventType,
  type AgentTag,
  type AutopilotPhase,
  assertNever,
  type NoticeSource,
  type RetryDiscard,
  type SubagentState,
  type TurnEndReason,
} from "./events/agent-events.js";
export { EventQueue } from "./events/event-queue.js";
export type { TeamChange } from "./events/team-view.js";
export { formatHookSummary } from "./hooks/format-hook-summary.js";
// Hooks
export { DEFAULT_HOOK_TIMEOUT_SECONDS, HookRunner, type HookRunnerOptions } from "./hooks/hook-runner.js";
export type { HookEventContexts, HookResult, HookStatus } from "./hooks/hook-types.js";
export { type LifecycleHooks, lifecycleHooks } from "./hooks/lifecycle-hooks.js";
export { FILE_CHANGING_TOOLS, toolCallHooks } from "./hooks/tool-call-hooks.js";
// MCP
export {
  type MappedMcpResult,
  type McpCallResult,
  type McpContent,
  mapMcpResult,
} from "./mcp/map-mcp-result.js";
export type { McpConnection, McpToolInfo } from "./mcp/mcp-connection.js";
export { mcpFragment } from "./mcp/mcp-fragment.js";
export {
  McpManager,
  type McpManagerOptions,
  type McpNotice,
  type McpServerState,
  type McpServerStatus,
} from "./mcp/mcp-manager.js";
export { type McpPromptCommand, mcpPromptCommands } from "./mcp/mcp-prompt-commands.js";
export {
  DEFAULT_MCP_TIMEOUT_MS,
  describeMcpEndpoint,
  type HttpMcpServerSpec,
  loadMcpServers,
  type McpServerSource,
  type McpServerSpec,
  readMcpJson,
  type StdioMcpServerSpec,
} from "./mcp/mcp-server-config.js";
export { type McpSession, type StartMcpSessionOptions, startMcpSession } from "./mcp/mcp-session.js";
export { mcpTool, mcpToolName } from "./mcp/mcp-tool-adapter.js";
export { MCP_MANAGER_SERVICE, readMcpResourceTool } from "./mcp/read-mcp-resource-tool.js";
export { projectMemoryDir, userMemoryPath } from "./memory/memory-paths.js";
export { memoryPromptFragment, projectMemoryExcerpt } from "./memory/memory-prompt.js";
export { listMemoryTopics, readMemoryTopic, writeMemoryTopic } from "./memory/memory-store.js";
export { findMentions, type Mention } from "./mentions/find-mentions.js";
export {
  IMAGE_MEDIA_TYPES,
  type ImageSource,
  imageMediaType,
  type ReadImage,
} from "./mentions/image-attachments.js";
export {
  type Attachment,
  MAX_MENTION_ENTRIES,
  MAX_MENTION_FILE_BYTES,
  type RefusedMention,
  resolveMentions,
} from "./mentions/resolve-mentions.js";
// Permissions and sandbox
export {
  type ApprovalAnswer,
  type ApprovalBroker,
  type ApprovalCallback,
  type ApprovalPrompt,
  type ApprovalRequest,
  createApprovalBroker,
  NO_APPROVER_REASON,
} from "./permissions/approval-broker.js";
export {
  type ApprovalRule,
  type ApprovalSubject,
  commandPrefix,
  matchesRule,
} from "./permissions/approval-rules.js";
export { createToolGate, type ToolGateOptions } from "./permissions/create-tool-gate.js";
export { intersectPolicies } from "./permissions/intersect-policies.js";
export { createPermissionPolicy, type PermissionPolicyOptions } from "./permissions/permission-policy.js";
export type {
  PermissionDecision,
  PermissionPolicy,
  PermissionRequest,
} from "./permissions/permission-types.js";
export { parseTrustMode, TRUST_MODES, type TrustMode, type TrustSettings } from "./permissions/trust-mode.js";
export {
  listNotepads,
  NOTEPAD_CATEGORIES,
  type NotepadCategory,
  readNotepad,
} from "./planning/notepad.js";
export {
  TODO_STATUSES,
  TODO_STORE_SERVICE,
  type TodoItem,
  type TodoStatus,
  TodoStore,
} from "./planning/todo-store.js";
export {
  AGENT_NAME_PATTERN,
  type AgentDefinition,
  agentDefinitionProblems,
  isKnownAgentModel,
} from "./roles/agents-json/agent-definition.js";
export {
  type AgentsJsonLocations,
  type AgentsJsonScope,
  agentsJsonLocations,
  PROJECT_AGENTS_JSON,
} from "./roles/agents-json/agents-json-paths.js";
export { loadAgentsJson } from "./roles/agents-json/load-agents-json.js";
export { type AgentsJsonFile, readAgentsJson } from "./roles/agents-json/read-agents-json.js";
export { AgentsJsonError, removeAgentEntry, writeAgentEntry } from "./roles/agents-json/write-agents-json.js";
// Roles and briefing
export {
  type AppliedRole,
  type ApplyRoleOptions,
  applyRole,
  fenceTools,
  type ModelLayer,
} from "./roles/apply-role.js";
export { BUILT_IN_ROLES } from "./roles/built-in/built-in-roles.js";
export { GENERIC_SUBAGENT_PROMPT } from "./roles/built-in/default-role.js";
export {
  formatRoleCatalog,
  type RoleSourceView,
  type RoleView,
  roleSourceView,
  roleView,
} from "./roles/format-role-catalog.js";
export { describeRolesForSpawn, formatRoleList, type RoleSummary } from "./roles/format-role-list.js";
export { loadConfigRoles } from "./roles/load-config-roles.js";
export { type LoadedRoles, loadFileRoles, ROLE_FILE_DIRECTORIES } from "./roles/load-file-roles.js";
export { KNOWN_TOOL_NAMES, normalizeToolNames } from "./roles/normalize-tool-names.js";
export { type ParsedRoleFile, parseRoleFile, ROLE_NAME_PATTERN } from "./roles/parse-role-file.js";
export { fallbackRole, type ResolvedRole, resolveRole } from "./roles/resolve-role.js";
export { type LoadRoleCatalogOptions, RoleCatalog, type RoleLayers } from "./roles/role-catalog.js";
export {
  DEFAULT_ROLE_MAX_STEPS,
  DEFAULT_ROLE_NAME,
  describeRoleSource,
  READ_TOOLS,
  type RoleDefinition,
  type RoleSource,
} from "./roles/role-definition.js";
export { RoleDisabledError, type RoleWarning } from "./roles/role-errors.js";
export {
  DEFAULT_TOOL_ROLE_PATTERNS,
  resolveToolRolePatterns,
  selectToolsByPatterns,
  type ToolRolePatterns,
} from "./roles/tool-role-patterns.js";
export { type AgentEntry, type ChildFactoryOptions, createChildFactory } from "./runtime/child-factory.js";
// Runtime for hosts
export {
  type AgentHost,
  type AgentRuntime,
  type CreateAgentRuntimeOptions,
  createAgentRuntime,
} from "./runtime/create-agent-runtime.js";
export { EventRouter } from "./runtime/event-router.js";
export {
  type FollowTeamOptions,
  followTeam,
  leadHasTeamMail,
  TEAM_WAKE_PROMPT,
} from "./runtime/follow-team.js";
export { type LoadedWorkspace, loadWorkspace } from "./runtime/load-workspace.js";
export {
  createModelResolver,
  limitResolvedModels,
  type ModelResolverOptions,
  type ModelSpec,
  parseModelSpec,
  type ResolvedModel,
} from "./runtime/model-resolver.js";
export { exportSessionJson, exportSessionMarkdown } from "./saved-sessions/export-session.js";
// Sessions
export { journalSteps, SessionJournal } from "./saved-sessions/session-journal.js";
export { SessionError, SessionStore } from "./saved-sessions/session-store.js";
export { titleFromMessages } from "./saved-sessions/session-title.js";
export type {
  DamagedSession,
  ResolvedSession,
  SavedAgentThread,
  SessionMeta,
  SessionRecord,
  SessionScan,
} from "./saved-sessions/session-types.js";
export { type ChosenProvider, chooseDefaultProvider } from "./session/choose-default-provider.js";
export {
  type CatalogueCommand,
  type CommandCatalogueOptions,
  expandSlashCommand,
  loadCommandCatalogue,
  skillPrompt,
} from "./session/command-catalogue.js";
export { type OpenSessionOptions, openSession, type SessionHost } from "./session/open-session.js";
export {
  acceptsImages,
  ImageInputError,
  type PreparedMessage,
} from "./session/prepare-message.js";
export { type PromptModes, readPromptModes } from "./session/prompt-modes.js";
export {
  AgentSteerError,
  type SessionAgentParts,
  type SessionAgents,
  sessionAgents,
} from "./session/session-agents.js";
export {
  type AutopilotCommand,
  parseAutopilotCommand,
  type SessionAutopilot,
} from "./session/session-autopilot.js";
export { CONTEXT_WARNING_POINTS, type ContextUsage } from "./session/session-context.js";
export type { AgentCost, CostFigures, CostReport } from "./session/session-cost.js";
export type { OpenedSession, SessionUsage } from "./session/session-handle.js";
export type { SessionInput } from "./session/session-input.js";
export {
  DEFAULT_THINKING_BUDGET,
  EXECUTE_PLAN_PROMPT,
  type ModeChange,
  SESSION_MODES,
  type SessionMode,
  SessionModes,
  type ThinkingSetting,
} from "./session/session-modes.js";
export {
  type PermissionEffect,
  type PermissionRuleView,
  type SessionPermissions,
  TRUST_LISTS,
  type TrustList,
} from "./session/session-permissions.js";
export { openSessionRecord, type SessionResume } from "./session/session-record.js";
export type { EarlierPrompt, RewindPlan, RewindResult } from "./session/session-rewind.js";
export type { ShellLineResult } from "./session/session-shell.js";
export type { IndexState, SessionStatus, SessionWorkflows } from "./session/session-workflows.js";
export { loadSkills } from "./skills/load-skills.js";
export { SKILLS_SERVICE, type Skill } from "./skills/skill-types.js";
export { skillsIndexFragment } from "./skills/skills-index-fragment.js";
// Subagents
export {
  AgentManager,
  type AgentManagerOptions,
  type BuiltChild,
  type ChildFactory,
  type ChildRequest,
  type ManagedAgentInfo,
  type SpawnedAgent,
  type SpawnRequest,
  SubagentError,
  WAIT_DEFAULT_MS,
  WAIT_MAX_MS,
  WAIT_MIN_MS,
  type WaitRequest,
} from "./subagents/agent-manager.js";
export { type AgentStatus, formatStatus, isFinal } from "./subagents/agent-status.js";
export { type QueueReason, SlotLimiter, type SlotLimits, type SlotPool } from "./subagents/slot-limiter.js";
// Teams
export { Mailbox, type OutgoingMessage } from "./teams/mailbox.js";
export {
  type CreateTaskRequest,
  TASK_STATUSES,
  TaskBoard,
  type TaskFilter,
  type TaskStatus,
  type TaskUpdateResult,
  type TeamTask,
  type UpdateTaskRequest,
} from "./teams/task-board.js";
export {
  formatTeammateMessage,
  formatTeammateMessages,
  parseStructured,
  type StructuredMessage,
  structuredText,
  TEAM_MESSAGE_TYPES,
  type TeamMessage,
  type TeamMessageType,
} from "./teams/team-message.js";
export {
  type SpawnTeammateRequest,
  TEAM_SERVICE,
  type TeamIdentity,
  TeamService,
  type TeamServiceOptions,
} from "./teams/team-service.js";
export {
  readTeamSnapshot,
  type TaskBoardSummary,
  type TeammateSnapshot,
  type TeamSnapshot,
  type TeamSource,
  type TeamSummary,
} from "./teams/team-snapshot.js";
export { TEAM_EVENT_DEBOUNCE_MS, TeamStateReporter } from "./teams/team-state-events.js";
export { type CreateTeamRequest, TeamStore } from "./teams/team-store.js";
export { TEAM_TOOL_NAMES } from "./teams/team-tool-names.js";
export {
  DEFAULT_LEAD_NAME,
  leadName,
  type MemberState,
  TEAM_COLORS,
  type TeamConfig,
  type TeamDirs,
  TeamError,
  type TeamMember,
} from "./teams/team-types.js";
export { MAX_KEEP_WORKING_TURNS, TeammateRunner } from "./teams/teammate-runner.js";
export {
  discardAgentChangesTool,
  mergeAgentChangesTool,
} from "./tools/agents/agent-changes-tools.js";
// Tools
export { ROLE_CATALOG_SERVICE } from "./tools/agents/agents-json-service.js";
export { defineAgentTool } from "./tools/agents/define-agent-tool.js";
export {
  AGENT_MANAGER_SERVICE,
  createSpawnAgentTool,
  LIFECYCLE_TOOL_NAMES,
  lifecycleTools,
} from "./tools/agents/lifecycle-tools.js";
export { listAgentsTool } from "./tools/agents/list-agents-tool.js";
export { removeAgentTool } from "./tools/agents/remove-agent-tool.js";
export { createTaskTool, type TaskRoleSource } from "./tools/agents/task-tool.js";
export { getArchitectureKnowledgeTool } from "./tools/architecture/get-architecture-knowledge-tool.js";
export { standardTools } from "./tools/catalogue/standard-tools.js";
export {
  type ToolCatalogue,
  type ToolCatalogueOptions,
  toolCatalogue,
} from "./tools/catalogue/tool-catalogue.js";
// More tools
export { deferIfMany } from "./tools/deferred/defer-if-many.js";
export { TOOL_REGISTRY_SERVICE, toolSearchTool } from "./tools/deferred/tool-search-tool.js";
export { unifiedDiff } from "./tools/files/unified-diff.js";
export { askUserTool } from "./tools/interact/ask-user-tool.js";
export { memoryReadTool } from "./tools/memory/memory-read-tool.js";
export { memoryWriteTool } from "./tools/memory/memory-write-tool.js";
export {
  DEFAULT_MAX_OUTPUT_CHARS,
  defineTool,
  type Tool,
  type ToolDefinition,
  ToolError,
} from "./tools/seam/define-tool.js";
export { filterToolNames, matchesToolPattern, ToolRegistry } from "./tools/seam/tool-registry.js";
export type {
  ChangeRecorder,
  FileChange,
  PathAccess,
  PathGuard,
  PathGuardResolveOptions,
  PathUse,
  ToolContext,
  ToolKind,
  ToolProgress,
  ToolResult,
  ToolServices,
} from "./tools/seam/tool-types.js";
export { projectRootOf } from "./tools/seam/tool-types.js";
export { truncateEnd, truncateText } from "./tools/seam/truncate-text.js";
export { createBashTool } from "./tools/shell/bash.js";
export { createVerifyTool } from "./tools/shell/verify.js";
export { loadSkillTool } from "./tools/skills/load-skill-tool.js";
export { formatTaskLine, leadTeamTools, memberTeamTools } from "./tools/teams/team-tools.js";
export { webFetchTool } from "./tools/web/web-fetch-tool.js";
export {
  emptyFigures,
  type Spend,
  type SubtreeTotal,
  type UsageFigures,
  UsageLedger,
  type UsageTotals,
} from "./usage/usage-ledger.js";
// Command workflows (`/handoff`, `/map`, `/learn`, prompt workflows)
export { MAP_DIRECTORY, MAP_DOCUMENTS, type MapResult, mapCodebase } from "./workflows/codebase-map.js";
export {
  formatHandoff,
  HANDOFF_DIRECTORY,
  newestHandoff,
  parseHandoffTodos,
  writeHandoff,
} from "./workflows/handoff.js";
export { saveLearnedSkill } from "./workflows/learn-skill.js";
export { WorkflowError } from "./workflows/workflow-error.js";
export type { WorktreeRecord } from "./worktrees/worktree-records.js";
