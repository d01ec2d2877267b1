import { z } from "zod";
import {
  EMBEDDING_KINDS,
  HOOK_EVENTS,
  HOOK_TYPES,
  normalizeSandboxLevel,
  normalizeTrustMode,
  OUTPUT_STYLES,
  SANDBOX_LEVELS,
  TRUST_MODES,
} from "./config-enums.js";

/*
 * The whole config file, section by section (spec edges §1.3 plus the keys later issues need).
 * Every key has a default, so `configSchema.parse({})` is the built-in configuration.
 * Sections use `prefault({})` so their own field defaults apply when the section is absent;
 * a present section and an absent one therefore resolve to the same values (the Rust
 * `[browser]`/`[shell.sandbox]` default quirk is deliberately not copied).
 */

const count = z.int({ error: "expected an integer" }).min(0);
const stringList = z.array(z.string());
const hexColour = z.string().regex(/^#?[0-9a-fA-F]{6}$/, { error: "expected a hex colour like #rrggbb" });

/** `[provider.<id>]`: overrides for one provider. Every field is optional and merges field by field. */
/**
 * Parse options for a schema parsed only a few times per run (the configuration, a tool's input, a
 * role file): zod compiles a fast path for each object schema on its first parse (`new Function`,
 * ~1 ms each, code V8 cannot cache), which costs more than it saves for a handful of parses.
 */
export const WITHOUT_ZOD_JIT = { jitless: true } as const;

/** The configuration's parse options: no JIT, and `reportInput` keeps the offending value in each issue, for the error messages. */
export const ONE_SHOT = { ...WITHOUT_ZOD_JIT, reportInput: true } as const;

export const providerEntrySchema = z.object({
  api_key: z.string().optional(),
  base_url: z.string().optional(),
  model: z.string().optional(),
  api_style: z.string().optional(),
  max_tokens: count.optional(),
  temperature: z.number().optional(),
  /** Context window in tokens, for models the registry does not know (local or new ones); drives compaction. */
  context_window: count.optional(),
});

/** `[provider]`: `default` plus one table per provider id. */
export const providerSectionSchema = z
  .object({ default: z.string().default("openai") })
  .catchall(providerEntrySchema);

const modelsSchema = z.object({
  max_tokens: count.default(4096),
  temperature: z.number().optional(),
});

const COLOUR_KEYS = [
  "bg_page",
  "bg_surface",
  "bg_elevated",
  "bg_sunken",
  "text_primary",
  "text_secondary",
  "text_tertiary",
  "text_disabled",
  "border_default",
  "border_strong",
  "accent",
  "accent_muted",
  "success",
  "danger",
  "warning",
  "info",
] as const;

const tuiColoursSchema = z.object(
  Object.fromEntries(COLOUR_KEYS.map((key) => [key, hexColour.optional()])) as Record<
    (typeof COLOUR_KEYS)[number],
    z.ZodOptional<typeof hexColour>
  >,
);

const tuiSchema = z.object({
  markdown: z.boolean().default(true),
  streaming: z.boolean().default(true),
  theme: z.string().default("dark"),
  accent: z.string().default("copper"),
  colors: tuiColoursSchema.prefault({}),
  output_style: z.enum(OUTPUT_STYLES).default("normal"),
  show_thinking: z.boolean().default(true),
  notify: z
    .object({
      bell: z.boolean().default(true),
      desktop: z.boolean().default(false),
      /** Only turns longer than this (ms) notify. */
      min_duration_ms: count.default(5000),
    })
    .prefault({}),
});

const trustSchema = z.object({
  mode: z.preprocess(normalizeTrustMode, z.enum(TRUST_MODES)).default("off"),
  allow_tools: stringList.default([]),
  allow_paths: stringList.default([]),
  deny_tools: stringList.default([]),
  deny_paths: stringList.default([]),
  auto_approve: stringList.default([]),
  always_ask: stringList.default([]),
  remember_approvals: z.boolean().default(false),
});

const retrySchema = z.object({
  max_retries: count.default(3),
  initial_backoff_ms: count.default(1000),
  max_backoff_ms: count.default(30000),
});

/** One `[[agent.hooks]]` entry (core §5.1). */
export const hookSchema = z.object({
  event: z.enum(HOOK_EVENTS),
  command: z.string().default(""),
  hook_type: z.enum(HOOK_TYPES).default("command"),
  prompt: z.string().optional(),
  instructions: z.string().optional(),
  tools: stringList.optional(),
  model: z.string().optional(),
  pattern: z.string().optional(),
  tool_name: z.string().optional(),
  block: z.boolean().default(false),
  /** Seconds before the hook is killed. */
  timeout: count.default(30),
});

/** One `[[agent.commands]]` entry: a custom slash command. */
export const customCommandSchema = z.object({
  name: z.string(),
  prompt: z.string(),
  description: z.string().optional(),
});

/**
 * A cap on what one agent (`scope = "agent"`, the default) or its whole subtree (`"subtree"`) may
 * spend: tokens (input + output), US dollars, wall-clock minutes. Any subset; none means no cap.
 */
export const budgetSchema = z.object({
  usd: z.number().positive().optional(),
  tokens: z.int().min(1).optional(),
  minutes: z.number().positive().optional(),
  scope: z.enum(["agent", "subtree"]).optional(),
});

/** Where a subagent works: the parent's tree (`shared`, the default) or its own git worktree. */
export const ISOLATION_MODES = ["shared", "worktree"] as const;

/** `[agent.agents.roles.<name>]`: a user-defined subagent role (core §2.2). */
export const roleSchema = z.object({
  description: z.string().optional(),
  config_file: z.string().optional(),
  system_prompt: z.string().optional(),
  model: z.string().optional(),
  max_steps: count.optional(),
  read_only: z.boolean().optional(),
  allowed_tools: stringList.optional(),
  disallowed_tools: stringList.optional(),
  enabled: z.boolean().default(true),
  /** MCP servers (by `mcp.servers` name) the role may use. */
  mcp_servers: stringList.optional(),
  /** Each of the role's turns gets a `<codebase_context>` block from the code index, as the lead's do. */
  auto_context: z.boolean().optional(),
  /** The role's default budget (a spawn's own `budget` replaces it). */
  budget: budgetSchema.optional(),
  /** `worktree`: each agent of the role works in its own git worktree and branch. */
  isolation: z.enum(ISOLATION_MODES).optional(),
});

const agentsSchema = z.object({
  /** The switch for the whole subagent system. */
  enabled: z.boolean().default(true),
  /** `spawn_agent` children one agent may run at once; more wait in line (see `max_queued`). */
  max_threads: count.min(1).default(4),
  /** `task` children one agent may run at once; more wait in line. */
  max_tasks: count.min(1).default(8),
  /**
   * Subagents running at once in the whole session. An agent waiting for its own children (`wait`,
   * `task`) does not count, so nested fan-outs cannot deadlock.
   */
  max_running: count.min(1).default(16),
  /** Spawns that may wait for a slot at once, across the session; one more is refused. */
  max_queued: count.default(64),
  max_depth: count.default(2),
  subagent_model: z.string().optional(),
  roles: z.record(z.string(), roleSchema).default({}),
});

const agentSchema = z.object({
  max_steps: count.default(100),
  max_tokens: count.optional(),
  custom_instructions: z.string().optional(),
  /** Sessions start in plan mode: the lead reads and plans, and changes nothing (`nyz exec --plan`). */
  plan_mode: z.boolean().default(false),
  /** Fraction of the context window at which the conversation is compacted. */
  auto_compact_threshold: z.number().gt(0).max(1).default(0.85),
  compact_instructions: z.string().optional(),
  model_profile: z.string().optional(),
  /**
   * Model streams of top-level agents (the lead, and each session a library host runs in this
   * process) that may be open at once. Subagents, `task` children and teammates are not counted:
   * `agent.agents.max_threads` and `max_tasks` bound them.
   */
  max_concurrent_streams: count.min(1).default(3),
  sandbox: z.preprocess(normalizeSandboxLevel, z.enum(SANDBOX_LEVELS)).default("workspace-write"),
  trust: trustSchema.prefault({}),
  retry: retrySchema.prefault({}),
  hooks: z.array(hookSchema).default([]),
  commands: z.array(customCommandSchema).default([]),
  verify: z
    .object({ checks: z.array(z.object({ kind: z.string(), command: z.string() })).default([]) })
    .prefault({}),
  agents: agentsSchema.prefault({}),
  /**
   * The session's cap on everything it spends (the lead and every subagent): reached, the run stops
   * after the current tool call (`nyz exec` exits 1, the session saved). `--max-budget-usd` sets `usd`.
   */
  budget: budgetSchema.omit({ scope: true }).prefault({}),
  sharing: z
    .object({
      enabled: z.boolean().default(false),
      pages_project: z.string().optional(),
      domain: z.string().optional(),
      redact_patterns: stringList.default([]),
    })
    .prefault({}),
  /** Role name → tool-name patterns that role may use. */
  tool_role_patterns: z.record(z.string(), stringList).optional(),
});

/** A stdio MCP server: a child process speaking MCP on stdin/stdout. */
export const stdioMcpServerSchema = z.object({
  command: z.string(),
  args: stringList.default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  enabled: z.boolean().default(true),
  timeout_ms: count.optional(),
});

/** An MCP server reached over streamable HTTP. */
export const httpMcpServerSchema = z.object({
  url: z.string(),
  headers: z.record(z.string(), z.string()).default({}),
  enabled: z.boolean().default(true),
  timeout_ms: count.optional(),
});

/** Stdio when `command` is present, else HTTP when `url` is present; neither is an error. */
export const mcpServerSchema = z.union([stdioMcpServerSchema, httpMcpServerSchema]);

const shellSchema = z.object({
  path: z.string().optional(),
  /** Set for every command `bash` and `verify` run, after credentials are scrubbed (so never removed). */
  env: z.record(z.string(), z.string()).default({}),
  /**
   * Variables (names or globs like `AWS_*`) that commands keep although they look like credentials:
   * by default `bash` and `verify` leave out the provider keys nyzhi holds and every variable whose
   * name contains KEY, TOKEN, SECRET or PASSWORD.
   */
  env_passthrough: stringList.default([]),
  /** Run before every `bash` command, in the same shell; if one fails, the command does not run. */
  startup_commands: stringList.default([]),
  sandbox: z
    .object({
      enabled: z.boolean().default(false),
      allow_network: stringList.default([]),
      /**
       * Paths (`~` expanded, relative to the project root) that `block_dotfiles` would hide but
       * the file tools and commands may read.
       */
      allow_read: stringList.default([]),
      /** Paths writable under `workspace-write` besides the workspace, for the file tools and commands. */
      allow_write: stringList.default([]),
      /**
       * Hide where credentials live in the home directory (`~/.ssh`, `~/.aws`, `~/.gnupg`,
       * `~/.config/gh` …, and nyzhi's own auth.json): the file tools refuse them and commands run
       * under bubblewrap do not see them.
       */
      block_dotfiles: z.boolean().default(true),
    })
    .prefault({}),
});

const indexSchema = z.object({
  enabled: z.boolean().default(true),
  embedding: z.enum(EMBEDDING_KINDS).default("auto"),
  /** Empty means the embedding provider's default model. */
  embedding_model: z.string().default(""),
  /** API root of the embeddings provider (an Ollama server, a proxy); unset means the provider's own. */
  embedding_base_url: z.string().optional(),
  /** Where local (transformers.js) models live, one folder per model id; unset means the model cache. */
  model_dir: z.string().optional(),
  /** Files larger than this many bytes are left out of the index; unset means 1 MiB. */
  max_file_bytes: z.number().int().positive().optional(),
  /** Each user turn gets the index's best chunks for the message as a `<codebase_context>` block. */
  auto_context: z.boolean().default(true),
  /** Most chunks in that block. */
  auto_context_chunks: count.default(5),
  /** Token budget of that block (estimated at 4 characters a token). */
  auto_context_tokens: count.default(2000),
  /**
   * ms a turn waits for the index to be ready (built and open) before going on without that block;
   * a slow disk or a loaded machine may want more.
   */
  auto_context_wait_ms: count.default(150),
  /**
   * A session in a project without an index builds one in the background (projects of at most
   * 20,000 files), and every session keeps the index current while it runs (a file watcher).
   */
  auto: z.boolean().default(true),
  /**
   * `index.auto` for headless runs (`nyz exec`, `nyz run`): off by default, when they use an index
   * that exists read-only (opened on the first `semantic_search`), build none, follow no changes and
   * add no auto-context unless asked (`--auto-context`). On: they build, follow changes and add
   * auto-context as the app does.
   */
  auto_headless: z.boolean().default(false),
  /** Paths left out of the index, as globs. */
  exclude: stringList.default([]),
});

export const configSchema = z.object({
  provider: providerSectionSchema.prefault({}),
  models: modelsSchema.prefault({}),
  tui: tuiSchema.prefault({}),
  agent: agentSchema.prefault({}),
  mcp: z.object({ servers: z.record(z.string(), mcpServerSchema).default({}) }).prefault({}),
  shell: shellSchema.prefault({}),
  /**
   * `[web]`: what `web_fetch` may reach. Loopback, private, link-local, CGNAT and cloud metadata
   * addresses are refused unless `allow_private` is set, or the URL's host is in `allow_hosts`
   * (`"localhost"`, `"10.0.0.5"`, `"docs.internal:8080"`, `"*.corp.example"`).
   */
  web: z
    .object({
      allow_private: z.boolean().default(false),
      allow_hosts: stringList.default([]),
    })
    .prefault({}),
  browser: z
    .object({
      enabled: z.boolean().default(false),
      executable_path: z.string().optional(),
      headless: z.boolean().default(true),
    })
    .prefault({}),
  memory: z.object({ auto_memory: z.boolean().default(true) }).prefault({}),
  index: indexSchema.prefault({}),
  /**
   * `[projects."<absolute project root>"]`, global file only (`nyz trust` writes it): a project
   * whose `trusted = true` may widen what nyzhi does (trust mode, sandbox, hooks, MCP servers …)
   * from its own `.nyzhi/config.toml`; other projects' such keys are ignored (see
   * `layers/project-trust.ts`).
   */
  projects: z.record(z.string(), z.object({ trusted: z.boolean().default(false) })).default({}),
});

/** The resolved configuration: every key present, defaults filled in. */
export type NyzhiConfig = z.infer<typeof configSchema>;
export type ProviderEntry = z.infer<typeof providerEntrySchema>;
export type HookConfig = z.infer<typeof hookSchema>;
export type CustomCommandConfig = z.infer<typeof customCommandSchema>;
export type RoleConfig = z.infer<typeof roleSchema>;
export type StdioMcpServerConfig = z.infer<typeof stdioMcpServerSchema>;
export type HttpMcpServerConfig = z.infer<typeof httpMcpServerSchema>;
export type McpServerConfig = z.infer<typeof mcpServerSchema>;

/** The built-in configuration (every default). */
export function defaultConfig(): NyzhiConfig {
  return configSchema.parse({}, ONE_SHOT);
}

export function isStdioMcpServer(server: McpServerConfig): server is StdioMcpServerConfig {
  return "command" in server;
}

/** The `[provider.<id>]` tables, without `provider.default`. */
export function providerEntries(config: NyzhiConfig): Array<[string, ProviderEntry]> {
  return Object.entries(config.provider).filter(
    (entry): entry is [string, ProviderEntry] => entry[0] !== "default" && typeof entry[1] === "object",
  );
}
