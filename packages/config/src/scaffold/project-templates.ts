/**
 * Files `nyz init` writes into a project. The config template must stay valid TOML that loads
 * without warnings, and uncommenting any setting line must also load cleanly (tested).
 */
export const CONFIG_TEMPLATE = `# nyzhi project configuration. Committed with the project; it overrides your global config.
# Personal overrides go in .nyzhi/config.local.toml (keep it out of git).
# Each setting shows its default: uncomment a line to change it.

# [provider]
# default = "openai"

# [agent]
# max_steps = 100
# auto_compact_threshold = 0.85
# sandbox = "workspace-write"  # read-only | workspace-write | full-access
# max_concurrent_streams = 3  # the lead's streams; subagents are bounded by [agent.agents]

# [agent.trust]
# mode = "off"  # off | limited | autoedit | full
# allow_tools = []
# allow_paths = []
# deny_tools = []  # merged with the global list
# deny_paths = []  # merged with the global list

# [agent.retry]
# max_retries = 3
# initial_backoff_ms = 1000
# max_backoff_ms = 30000

# [agent.agents]
# enabled = true
# max_threads = 4  # spawn_agent children one agent runs at once (more wait in line)
# max_tasks = 8    # task delegations one agent runs at once (more wait in line)
# max_running = 16 # subagents running at once in the session (waiting parents not counted)
# max_queued = 64  # spawns waiting for a slot; one more is refused
# max_depth = 2

# [agent.agents.roles.reviewer]
# description = "Reviews changes"
# read_only = true

# Hooks and commands add to the global ones.
# [[agent.hooks]]
# event = "after_edit"
# command = "npx prettier --write {file}"
# pattern = "*.ts, *.tsx"

# [[agent.commands]]
# name = "test"
# prompt = "Run the tests and fix what fails. $ARGUMENTS"

# [mcp.servers.example]
# command = "npx"
# args = ["-y", "example-mcp-server"]

# Shell and sandbox settings that widen what nyzhi may do apply only once you trust the project (nyz trust).
# [shell]
# startup_commands = []  # run before every bash command, e.g. ["source .venv/bin/activate"]

# [shell.sandbox]
# block_dotfiles = true  # hide ~/.ssh, ~/.aws, ~/.config/gh … from the file tools and commands
# allow_read = []   # blocked paths that may be read anyway, e.g. ["~/.config/gh"]
# allow_write = []  # paths besides the project that may be written

# [memory]
# auto_memory = true
`;

export const RULES_TEMPLATE = `# Project Rules

Describe how to work in this project: build and test commands, code style, what to avoid.
`;

export const LOCAL_PREFERENCES_TEMPLATE = `<!-- Your personal preferences for nyzhi in this project (not committed). -->
`;

export const EXAMPLE_ROLE_TEMPLATE = `---
name: example-reviewer
description: Reviews a change for bugs, risky edits and missing tests, without editing files.
tools: read, grep, glob
model: inherit
---
You are a careful code reviewer. Read the files involved in the change, then report:

1. Bugs and edge cases the change gets wrong.
2. Edits that are risky or larger than needed.
3. Missing or weak tests.

Quote file paths and line numbers. Do not edit files.
`;

export const REVIEW_COMMAND_TEMPLATE = `# Review code for issues

Review $ARGUMENTS for bugs, security problems, performance issues and unclear code. List each
finding with its file and line, most serious first, and suggest a fix.
`;

/**
 * Lines `nyz init` adds to the project's `.gitignore` (or `.git/info/exclude`): personal files
 * outside `.nyzhi/`, whose own `.gitignore` covers the rest (NYZHI_GITIGNORE_ENTRIES).
 */
export const GITIGNORE_ENTRIES = ["NYZHI.local.md"];
