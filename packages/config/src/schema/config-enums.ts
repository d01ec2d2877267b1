/** How much the agent may do without asking (core §4.3). */
export const TRUST_MODES = ["off", "limited", "autoedit", "full"] as const;
export type TrustMode = (typeof TRUST_MODES)[number];

/** What the sandbox lets mutating tools touch (core §4.5). */
export const SANDBOX_LEVELS = ["read-only", "workspace-write", "full-access"] as const;
export type SandboxLevel = (typeof SANDBOX_LEVELS)[number];

export const OUTPUT_STYLES = ["normal", "verbose", "minimal", "structured"] as const;
export type OutputStyle = (typeof OUTPUT_STYLES)[number];

export const HOOK_EVENTS = [
  "session_start",
  "user_prompt_submit",
  "pre_tool_use",
  "post_tool_use",
  "post_tool_use_failure",
  "permission_request",
  "notification",
  "after_edit",
  "after_turn",
  "subagent_start",
  "subagent_end",
  "compact_context",
  "worktree_create",
  "worktree_remove",
  "config_change",
  "teammate_idle",
  "task_completed",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const HOOK_TYPES = ["command", "prompt", "agent"] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/**
 * `index.embedding`: `auto` picks the best available (a remote with a key, else a local model,
 * else none); `none` is full-text search only. `tfidf` (the original's hash embedder) now means
 * `none`, and `api` the first remote with a key.
 */
export const EMBEDDING_KINDS = [
  "auto",
  "voyage",
  "openai",
  "gemini",
  "ollama",
  "perplexity",
  "local",
  "none",
  "tfidf",
  "api",
] as const;
export type EmbeddingKind = (typeof EMBEDDING_KINDS)[number];

const TRUST_ALIASES: Readonly<Record<string, TrustMode>> = {
  auto_edit: "autoedit",
  "auto-edit": "autoedit",
};

const SANDBOX_ALIASES: Readonly<Record<string, SandboxLevel>> = {
  readonly: "read-only",
  workspace: "workspace-write",
  full: "full-access",
  "danger-full-access": "full-access",
};

/**
 * Maps the accepted spellings of a trust mode to the canonical one (`auto_edit`, `auto-edit`,
 * any case → `autoedit`). Anything else is returned unchanged so the schema reports it.
 */
export function normalizeTrustMode(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lower = value.toLowerCase();
  return TRUST_ALIASES[lower] ?? ((TRUST_MODES as readonly string[]).includes(lower) ? lower : value);
}

/** Maps sandbox aliases (`readonly`, `workspace`, `full`, `danger-full-access`) to the canonical level. */
export function normalizeSandboxLevel(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lower = value.toLowerCase();
  return SANDBOX_ALIASES[lower] ?? ((SANDBOX_LEVELS as readonly string[]).includes(lower) ? lower : value);
}
