export const packageName = "@nyzhi/tui";

// Agents panel
export { AgentTranscript, type AgentTranscriptProps, breadcrumb } from "./agents/agent-transcript.js";
export {
  type AgentInputAction,
  type AgentTranscripts,
  agentTranscriptsReducer,
  pruneTranscripts,
} from "./agents/agent-transcripts.js";
export { AgentTree, type AgentTreeProps, formatBoard } from "./agents/agent-tree.js";
export { agentPath } from "./agents/agent-tree-queries.js";
export {
  type AgentLifecycle,
  type AgentNode,
  type AgentRunStatus,
  type AgentTreeInput,
  type AgentTreeState,
  agentStatus,
  isFinished,
  type RunningTool,
  type UsageTotals,
} from "./agents/agent-tree-types.js";
export {
  agentTreeReducer,
  clearFinished,
  createAgentTreeState,
  reduceAgentTree,
} from "./agents/agents-reducer.js";
export { ROW_REFRESH_MS } from "./agents/use-gated-nodes.js";

// The app
export { App, type AppProps, QUIT_WINDOW_MS } from "./app/app.js";
export { ApprovalQueue } from "./app/approval-queue.js";
export { BUILTIN_COMMANDS } from "./app/commands/builtin-commands.js";
export type {
  AppCommand,
  BuiltinCommand,
  CommandContext,
  HostContext,
} from "./app/commands/command-types.js";
export { replayThread } from "./app/replay-thread.js";
export { type RunAppOptions, runApp } from "./app/run-app.js";
export { type PendingQuestion, SessionBridge } from "./app/session-bridge.js";
export type { SessionOpener } from "./app/use-session.js";
// Approvals
export { ApprovalDialog, type ApprovalDialogProps } from "./approval/approval-dialog.js";
export { ApprovalPreview, previewDiff } from "./approval/approval-preview.js";
export {
  type ApprovalDecision,
  type ApprovalRequestView,
  describeRequester,
  toApprovalAnswer,
} from "./approval/approval-types.js";
// Slash commands, completion popup, palette
export { CommandPalette, type CommandPaletteProps } from "./commands/command-palette.js";
export {
  type CommandKind,
  type CommandSource,
  filterCommands,
  findCommand,
  mergeCommands,
  type SlashCommand,
  unknownCommandMessage,
} from "./commands/command-registry.js";
export {
  type CompletionEntry,
  CompletionList,
  type CompletionListProps,
} from "./commands/completion-list.js";
// Diffs
export { computeUnifiedDiff } from "./diff/compute-diff.js";
export { DIFF_TOOLS, diffFromToolEnd, type ToolDiff } from "./diff/diff-from-tool.js";
export { DEFAULT_DIFF_LINES, DiffView, type DiffViewProps } from "./diff/diff-view.js";
export { type DiffRow, type DiffSummary, parseUnifiedDiff } from "./diff/parse-unified-diff.js";
export { type FuzzyMatch, type FuzzyResult, fuzzyFilter, fuzzyMatch } from "./fuzzy/fuzzy-match.js";
// Input
export { BufferText, type BufferTextProps } from "./input/buffer-text.js";
export {
  type EditorContext,
  type EditorEffect,
  type EditorState,
  editorKey,
  INITIAL_EDITOR_STATE,
} from "./input/editor-state.js";
export { type FileSource, MAX_COMPLETIONS } from "./input/input-completion.js";
export { DEFAULT_PLACEHOLDER, InputEditor, type InputEditorProps } from "./input/input-editor.js";
export {
  InputHistory,
  InputHistoryError,
  MAX_HISTORY_ENTRIES,
  projectHistoryPath,
} from "./input/input-history.js";
export { PASTE_CHIP_CHARS, PASTE_CHIP_LINES, type PasteChip } from "./input/paste-chips.js";
export { bufferOf, EMPTY_BUFFER, type TextBuffer } from "./input/text-buffer.js";
// Keys
export { isCtrl, isNewlineKey, type KeyName, type Keypress, parseKey } from "./keys/parse-key.js";
export { type UseKeypressOptions, useKeypress } from "./keys/use-keypress.js";
// Markdown
export { CodeBlock, type CodeBlockProps } from "./markdown/code-block.js";
export { type CodeSpan, highlightCode } from "./markdown/highlight-code.js";
export { lexMarkdown, Markdown, type MarkdownProps } from "./markdown/markdown.js";
// The app's one view of its session (lead transcript, agents' transcripts, tree, totals, teams)
export {
  createSessionView,
  emptySessionTotals,
  reduceSessionView,
  type SessionTotals,
  type SessionView,
  type SessionViewAction,
  type SessionViewInput,
} from "./session-view/session-view.js";
export {
  createSessionViewStore,
  type SessionViewStore,
  useSessionView,
} from "./session-view/session-view-store.js";
// Status line
export { formatCost, formatTokens } from "./status/format-usage.js";
export {
  FOOTER_HINTS,
  type FooterMode,
  StatusFooter,
  type StatusFooterProps,
} from "./status/status-footer.js";
export { displayWidth, graphemes, truncateToWidth } from "./text/display-width.js";
// Theme
export { ACCENTS, accentColour } from "./theme/accents.js";
export {
  colourDisabled,
  detectThemeMode,
  type ResolveThemeOptions,
  resolveTheme,
  type SyntaxScope,
  type Theme,
  type ThemeColourOverrides,
  type ThemeEnvironment,
  type ThemeMode,
  themeModeOf,
} from "./theme/theme.js";
export { ThemeProvider, useTheme } from "./theme/theme-context.js";
// Tool rows
export { formatDuration } from "./tools/format-duration.js";
export { SPINNER_INTERVAL_MS, Spinner, useTicker } from "./tools/spinner.js";
export { summarizeToolInput } from "./tools/summarize-tool-input.js";
export { ToolRow, type ToolRowProps } from "./tools/tool-row.js";
export { TranscriptItemView, type TranscriptItemViewProps } from "./transcript/transcript-item-view.js";
// Transcript
export { transcriptReducer } from "./transcript/transcript-reducer.js";
export { createTranscriptState } from "./transcript/transcript-state.js";
export type {
  AgentLabel,
  AssistantItem,
  DiffItem,
  ErrorItem,
  NoticeItem,
  QueuedPrompt,
  RetryItem,
  SubagentItem,
  ThinkingItem,
  TokenUsage,
  ToolItem,
  ToolStatus,
  TranscriptAction,
  TranscriptInput,
  TranscriptItem,
  TranscriptState,
  TurnFooterItem,
  UserItem,
} from "./transcript/transcript-types.js";
export {
  finishedPrefixLength,
  TranscriptView,
  type TranscriptViewProps,
} from "./transcript/transcript-view.js";
