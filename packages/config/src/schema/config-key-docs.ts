/**
 * One line per config key for docs/configuration.md (generated from the schema by
 * `configReference()`; test/docs/config-reference.test.ts fails when a key of the schema has no
 * line here, or a line names no key). `<id>` is a provider id, `<name>` a table key of your own,
 * `[]` an entry of an array of tables.
 */
export const CONFIG_KEY_DOCS: Readonly<Record<string, string>> = {
  "provider.default":
    "The provider used when none is given (`-p`, `NYZHI_PROVIDER`); with none configured nyz picks the one whose key it finds.",
  "provider.<id>.api_key":
    "The provider's API key. Prefer the environment variable or `nyz login` (keychain); a key here is stored in plain text.",
  "provider.<id>.base_url":
    "API root for this provider (a proxy, a gateway, a local server). Decides where the key is sent.",
  "provider.<id>.model": "The model this provider uses by default (`-m` and `NYZHI_MODEL` override it).",
  "provider.<id>.api_style":
    "Wire format of a custom provider: `anthropic`, `openai-chat`, `openai-responses` or `gemini`.",
  "provider.<id>.max_tokens": "Most output tokens per reply for this provider.",
  "provider.<id>.temperature": "Sampling temperature for this provider.",
  "provider.<id>.context_window":
    "Context window in tokens, for models the registry does not know (local or new ones); drives compaction.",
  "models.max_tokens": "Most output tokens per reply, for every provider.",
  "models.temperature": "Sampling temperature, for every provider.",
  "tui.markdown": "Render the model's Markdown in the app.",
  "tui.streaming": "Show replies as they stream in the app.",
  "tui.theme":
    "The app's theme: `dark`, `light`, `auto` (from `COLORFGBG`) or a preset name. `/theme` sets it.",
  "tui.accent": "The app's accent colour: an accent name (see `/theme`) or `#rrggbb`.",
  "tui.colors.bg_page": "Page background colour override (`#rrggbb`).",
  "tui.colors.bg_surface": "Surface background colour override (`#rrggbb`).",
  "tui.colors.bg_elevated": "Elevated surface colour override (`#rrggbb`).",
  "tui.colors.bg_sunken": "Sunken surface colour override (`#rrggbb`).",
  "tui.colors.text_primary": "Primary text colour override (`#rrggbb`).",
  "tui.colors.text_secondary": "Secondary text colour override (`#rrggbb`).",
  "tui.colors.text_tertiary": "Tertiary (dim) text colour override (`#rrggbb`).",
  "tui.colors.text_disabled": "Disabled text colour override (`#rrggbb`).",
  "tui.colors.border_default": "Border colour override (`#rrggbb`).",
  "tui.colors.border_strong": "Strong border colour override (`#rrggbb`).",
  "tui.colors.accent": "Accent colour override (`#rrggbb`).",
  "tui.colors.accent_muted": "Muted accent colour override (`#rrggbb`).",
  "tui.colors.success": "Success colour override (`#rrggbb`).",
  "tui.colors.danger": "Danger colour override (`#rrggbb`).",
  "tui.colors.warning": "Warning colour override (`#rrggbb`).",
  "tui.colors.info": "Info colour override (`#rrggbb`).",
  "tui.output_style": "How much of the agents' work the app shows.",
  "tui.show_thinking": "Show the model's thinking in the app.",
  "tui.notify.bell":
    "Ring the terminal bell when a long turn ends or an approval waits (`/notify` changes it for the session).",
  "tui.notify.desktop":
    "Send a desktop notification (notify-send, osascript) when a long turn ends or an approval waits.",
  "tui.notify.min_duration_ms": "Only turns longer than this (ms) notify.",
  "agent.max_steps": "Most model steps in one turn of the lead (`--max-steps` overrides it).",
  "agent.max_tokens": "Most output tokens per model reply.",
  "agent.custom_instructions": "Text added to the lead's system prompt in every session.",
  "agent.plan_mode":
    "Start sessions in plan mode: the lead is offered only read-only tools and plans without acting (`nyz exec --plan`; Shift+Tab in the app).",
  "agent.auto_compact_threshold": "Fraction of the context window at which the conversation is compacted.",
  "agent.compact_instructions":
    "Extra instructions for the summary written when the conversation is compacted.",
  "agent.model_profile": "A named model profile.",
  "agent.max_concurrent_streams":
    "Model streams of top-level agents (the lead, and each session a library host runs in this process) open at once; subagents are bounded by `agent.agents.*`.",
  "agent.sandbox":
    "Where commands may write: `read-only`, `workspace-write` (the project and temp dirs) or `full-access` (no sandbox).",
  "agent.trust.mode":
    "What runs without asking besides reads: `off` (nothing), `limited` (`allow_tools` in the workspace), `autoedit` (edits in the workspace too) or `full` (everything).",
  "agent.trust.allow_tools": "Tools (names or patterns such as `bash(npm test*)`) that run without asking.",
  "agent.trust.allow_paths": "Limits `limited` and `autoedit` to these paths (globs) inside the workspace.",
  "agent.trust.deny_tools": "Tools (names or patterns) that are always refused.",
  "agent.trust.deny_paths": "Paths (globs) the tools may never touch.",
  "agent.trust.auto_approve":
    "Tool patterns approved without asking in every trust mode (`always_ask` and control files still ask).",
  "agent.trust.always_ask":
    "Tool patterns that ask in every trust mode, `full` included (headless runs refuse them).",
  "agent.trust.remember_approvals": 'Keep an "allow always" answer for later sessions.',
  "agent.retry.max_retries":
    "Retries of a failed model request (network error, 429, 5xx) before the turn fails.",
  "agent.retry.initial_backoff_ms": "First wait between retries, ms (doubles each time; `Retry-After` wins).",
  "agent.retry.max_backoff_ms": "Longest wait between retries, ms.",
  "agent.hooks": "Hooks: commands (or prompts) run at events of the session, as `[[agent.hooks]]` tables.",
  "agent.hooks[].event":
    "The event that runs the hook (`pre_tool_use`, `permission_request`, `after_edit`, `subagent_start` …).",
  "agent.hooks[].command": "The shell command to run; it reads the event as JSON on stdin.",
  "agent.hooks[].hook_type": "`command` runs `command`; `prompt` and `agent` ask a model with `prompt`.",
  "agent.hooks[].prompt": "The prompt of a `prompt` or `agent` hook.",
  "agent.hooks[].instructions": "Extra instructions for an `agent` hook.",
  "agent.hooks[].tools": "Tools an `agent` hook may use.",
  "agent.hooks[].model": "The model of a `prompt` or `agent` hook.",
  "agent.hooks[].pattern": "Only for events about files matching these globs (comma-separated).",
  "agent.hooks[].tool_name": "Only for calls of this tool (name or pattern).",
  "agent.hooks[].block": "A failure of this hook blocks the action (exit code 2 always does).",
  "agent.hooks[].timeout": "Seconds before the hook is killed.",
  "agent.commands": "Custom slash commands, as `[[agent.commands]]` tables (also `.nyzhi/commands/*.md`).",
  "agent.commands[].name": "The command's name (`/name`).",
  "agent.commands[].prompt": "The prompt it sends; `$ARGUMENTS` is replaced by what follows the command.",
  "agent.commands[].description": "One line shown in the command list.",
  "agent.verify.checks":
    "Checks the `verify` tool runs (build, test, lint), as `[[agent.verify.checks]]` tables.",
  "agent.verify.checks[].kind": "What the check is (`build`, `test`, `lint` …).",
  "agent.verify.checks[].command": "The command to run.",
  "agent.agents.enabled": "The switch for the whole subagent system (`spawn_agent`, `task`, teams).",
  "agent.agents.max_threads":
    "`spawn_agent` agents pending or running at once; past it a spawn fails with a clear error.",
  "agent.agents.max_tasks": "`task` children running at once; past it a `task` call waits for a slot.",
  "agent.agents.max_running":
    "Subagents running at once in the whole session; past it a spawn waits in line (a parent waiting for its children lends them its slot).",
  "agent.agents.max_queued":
    "Spawns that may wait in line for a slot; past it a spawn is refused with a message.",
  "agent.agents.roles.<name>.budget.usd":
    "The role's default budget in US dollars (per agent, or per subtree with `scope`).",
  "agent.agents.roles.<name>.budget.tokens": "The role's default budget in tokens (input + output).",
  "agent.agents.roles.<name>.budget.minutes": "The role's default budget in wall-clock minutes.",
  "agent.agents.roles.<name>.budget.scope":
    "`agent`: the budget caps the agent alone; `subtree`: it and its subagents together.",
  "agent.agents.roles.<name>.isolation":
    "`worktree`: the role's agents work in their own git worktree and branch, merged or discarded on purpose.",
  "agent.budget.usd":
    "The session's cap in US dollars (`--max-budget-usd` on `nyz exec`); past it the run ends, saved.",
  "agent.budget.tokens": "The session's cap in tokens (input + output).",
  "agent.budget.minutes": "The session's cap in wall-clock minutes.",
  "agent.agents.max_depth": "How deep subagents may nest (the lead is depth 0).",
  "agent.agents.subagent_model": "The model subagents use when their role names none (default: the lead's).",
  "agent.agents.roles":
    "Roles defined in config, as `[agent.agents.roles.<name>]` tables (see docs/agents.md).",
  "agent.agents.roles.<name>.description": "When to use the role: shown to the lead in the role list.",
  "agent.agents.roles.<name>.config_file": "An agent file (Markdown with front matter) holding the role.",
  "agent.agents.roles.<name>.system_prompt": "The role's system prompt.",
  "agent.agents.roles.<name>.model": "The role's model (`provider/model` or a model id).",
  "agent.agents.roles.<name>.max_steps": "Most steps of one turn of an agent in this role.",
  "agent.agents.roles.<name>.read_only": "The role gets only tools that change nothing.",
  "agent.agents.roles.<name>.allowed_tools": "The only tools the role gets (names or patterns).",
  "agent.agents.roles.<name>.disallowed_tools": "Tools the role never gets.",
  "agent.agents.roles.<name>.enabled": "Set false to hide a role (a built-in one too).",
  "agent.agents.roles.<name>.mcp_servers": "MCP servers (by `mcp.servers` name) the role may use.",
  "agent.agents.roles.<name>.auto_context":
    "Each of the role's turns gets a `<codebase_context>` block from the code index, as the lead's do.",
  "agent.sharing.enabled": "Share sessions as web pages.",
  "agent.sharing.pages_project": "The pages project sessions are shared to.",
  "agent.sharing.domain": "The domain shared sessions are served from.",
  "agent.sharing.redact_patterns": "Patterns removed from shared sessions.",
  "agent.tool_role_patterns": "Role name → tool-name patterns that role may use.",
  "mcp.servers": "MCP servers, as `[mcp.servers.<name>]` tables (also `.mcp.json` in a trusted project).",
  "mcp.servers.<name>.command": "A stdio server: the command to start.",
  "mcp.servers.<name>.args": "A stdio server: its arguments.",
  "mcp.servers.<name>.env": "A stdio server: variables set for it.",
  "mcp.servers.<name>.cwd": "A stdio server: its working directory.",
  "mcp.servers.<name>.enabled": "Set false to keep the entry without starting the server.",
  "mcp.servers.<name>.timeout_ms": "How long one request to the server may take, ms.",
  "mcp.servers.<name>.url": "An HTTP server: its URL (streamable HTTP).",
  "mcp.servers.<name>.headers": "An HTTP server: headers sent with each request.",
  "shell.path": "The shell `bash` runs commands in (default: `bash`, else `sh`).",
  "shell.env": "Variables set for every command `bash` and `verify` run, after credentials are scrubbed.",
  "shell.env_passthrough":
    "Variables (names or globs like `AWS_*`) that commands keep although they look like credentials.",
  "shell.startup_commands":
    "Run before every `bash` command, in the same shell; if one fails, the command does not run.",
  "shell.sandbox.enabled": "Run `bash` commands under bubblewrap (Linux).",
  "shell.sandbox.allow_network": "Non-empty: sandboxed commands keep network access (otherwise it is cut).",
  "shell.sandbox.allow_read":
    "Paths (`~` expanded, relative to the project root) that `block_dotfiles` would hide but the tools and commands may read.",
  "shell.sandbox.allow_write":
    "Paths writable under `workspace-write` besides the workspace, for the file tools and commands.",
  "shell.sandbox.block_dotfiles":
    "Hide where credentials live in the home directory (`~/.ssh`, `~/.aws`, `~/.gnupg`, auth.json …) from the tools and sandboxed commands.",
  "web.allow_private": "Let `web_fetch` reach loopback, private, link-local and cloud-metadata addresses.",
  "web.allow_hosts":
    "Hosts `web_fetch` may reach although private (`localhost`, `10.0.0.5`, `*.corp.example`).",
  "browser.enabled": "Offer a browser tool.",
  "browser.executable_path": "The browser to start.",
  "browser.headless": "Run the browser without a window.",
  "memory.auto_memory": "Let agents save what they learn about the project to its memory files.",
  "index.enabled":
    "Use the code index (semantic and full-text search, auto-context). Needs LanceDB (optional).",
  "index.embedding":
    "The embedder: `auto` (a remote key, else a local model, else full-text only), `voyage`, `openai`, `gemini`, `ollama`, `local`, `none`.",
  "index.embedding_model": "The embedding model; empty means the provider's default.",
  "index.embedding_base_url": "API root of the embeddings provider (an Ollama server, a proxy).",
  "index.model_dir": "Where local (transformers.js) models live, one folder per model id.",
  "index.max_file_bytes": "Files larger than this many bytes are left out of the index (default 1 MiB).",
  "index.auto_context":
    "Each user turn gets the index's best chunks for the message as a `<codebase_context>` block.",
  "index.auto_context_chunks": "Most chunks in that block.",
  "index.auto_context_tokens": "Token budget of that block (estimated at 4 characters a token).",
  "index.auto_context_wait_ms": "How long a turn waits for the index before going on without that block, ms.",
  "index.auto":
    "A session in a project without an index builds one in the background (up to 20,000 files) and keeps it current while it runs.",
  "index.auto_headless":
    "`index.auto` for headless runs (`nyz exec`, `nyz run`): off, they use an index that exists read-only (opened on the first search), build none and add auto-context only with `--auto-context`; on, they use the index as the app does.",
  "index.exclude": "Paths left out of the index, as globs.",
  projects: "Trusted projects, written by `nyz trust` (global file only).",
  "projects.<name>.trusted":
    '`[projects."/abs/root"] trusted = true`: this project\'s own config may widen what nyzhi does.',
};
