import { markStartup } from "@nyzhi/config";
import { Command, CommanderError, Option } from "commander";
import { opensApp } from "./commands/open-app-args.js";
import type { HeadlessFlags } from "./headless/headless-options.js";
import { ExitCode } from "./io/exit-codes.js";
import type { GlobalFlags } from "./io/global-flags.js";
import { type CommandIo, processIo } from "./io/output.js";
import { redactedIo } from "./io/redacted-io.js";
import { NYZHI_VERSION } from "./version.js";

export type { GlobalFlags } from "./io/global-flags.js";

const HEADLESS_OUTPUT_HELP = `
Output:
  Progress (streamed text, tool lines, the summary) goes to stderr, the final answer to stdout,
  so \`nyz run "…" > answer.md\` and \`x=$(nyz exec "…")\` get the answer and only it. When stdout
  and stderr are both a terminal the answer is not printed again (it was streamed already).
  -q prints only the answer; --json (run: --format json) prints only JSONL events on stdout,
  the last one turn_complete with the answer and usage (docs/json-events.md).

Code index:
  A headless run uses the project's code index only if one exists (\`nyz index\` builds it), read
  only, opened on the first semantic_search; it builds none and adds no auto-context. Pass
  --auto-context to give the turn a <codebase_context> block from the index (it waits for the
  index to open), or set index.auto_headless = true to build, update and use it as the app does.
`;

const EXIT_CODES_HELP = `
Interactive app (on a terminal):
  nyz [prompt]          open the app (and send the prompt)
  nyz -c, --continue    continue this project's latest session
  nyz -s <query>        resume the session with this id prefix or title

Exit codes:
  0    success
  1    failure (bad config, provider or I/O error, failed turn)
  2    usage error (unknown command or flag, missing argument)
  130  interrupted (Ctrl-C); work so far is saved

Environment:
  NYZHI_HOME   relocates every nyzhi directory (config, sessions, logs, credentials)
  NYZHI_LOG    log level for <data dir>/logs/nyzhi.log (info by default; debug, trace, silent)
`;

/** Builds the `nyz` program. Each command's implementation loads lazily when it runs. */
export function buildProgram(io: CommandIo, setExit: (code: number) => void): Command {
  const program = new Command("nyz")
    .description("nyzhi: a terminal-first AI coding agent with specialised subagents")
    .version(NYZHI_VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .addOption(new Option("-p, --provider <id>", "provider to use (overrides provider.default)"))
    .addOption(new Option("-m, --model <id>", "model to use for this run"))
    .addOption(new Option("-y, --trust <mode>", "trust mode: off, limited, autoedit, full"))
    .addOption(
      new Option(
        "--trust-project",
        "apply this project's own trust, sandbox, hook and MCP settings for this run (as `nyz trust` would)",
      ),
    )
    .showHelpAfterError("(run `nyz --help` for usage)")
    .addHelpText("after", EXIT_CODES_HELP)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();

  const globals = (): GlobalFlags => program.opts<GlobalFlags>();
  const run = (task: () => Promise<number>) => async () => setExit(await task());

  const config = program
    .command("config")
    .description("show the merged configuration, or get and set one key")
    .option("--json", "print as JSON instead of TOML")
    .option("--origin", "show which layer and file each value came from")
    .action(async (options: { json?: boolean; origin?: boolean }) =>
      run(async () => (await import("./commands/config-command.js")).showConfig(io, globals(), options))(),
    );
  config
    .command("get <key>")
    .description("print one value by its dotted key path, e.g. agent.trust.mode")
    .option("--origin", "also print where the value came from")
    .action(async (key: string, options: { origin?: boolean }, command: Command) => {
      // `--origin` is also an option of `config` itself, and commander gives it to the parent.
      const origin = options.origin === true || command.parent?.opts<{ origin?: boolean }>().origin === true;
      await run(async () =>
        (await import("./commands/config-command.js")).getConfig(io, globals(), key, { origin }),
      )();
    });
  config
    .command("set <key> <value>")
    .description("validate and write one value, keeping every other key and comment")
    .option("--global", "write the global config file")
    .option("--project", "write the project's .nyzhi/config.toml (default inside a project)")
    .action(async (key: string, value: string, options: { global?: boolean; project?: boolean }) =>
      run(async () => (await import("./commands/config-command.js")).setConfig(io, key, value, options))(),
    );

  program
    .command("trust [dir]")
    .description(
      "trust this project (or the one holding dir): its .nyzhi/config.toml and .mcp.json may then widen power",
    )
    .option("--list", "print the trusted project roots")
    .option("--remove", "stop trusting the project")
    .addHelpText(
      "after",
      `
In a project you have not trusted, settings of its .nyzhi/config.toml and .nyzhi/config.local.toml
that widen what nyzhi may do are ignored with a warning: agent.trust (mode, allow_tools,
allow_paths, auto_approve), agent.sandbox, agent.hooks, mcp.servers, shell.sandbox, shell.path,
provider.<id>.base_url …, and the servers of .mcp.json. Settings that only narrow (deny_tools,
deny_paths, always_ask, a stricter sandbox or trust mode) always apply. The trust is recorded in the
global config as [projects."<root>"] trusted = true. For one run, pass --trust-project instead.
`,
    )
    .action(async (directory: string | undefined, options: { list?: boolean; remove?: boolean }) =>
      run(async () => (await import("./commands/trust-command.js")).trustCommand(io, directory, options))(),
    );

  program
    .command("init")
    .description("scaffold .nyzhi/ in this project: config.toml, rules.md, an example role")
    .action(run(async () => (await import("./commands/init-command.js")).initProject(io)));

  const headless = () => import("./commands/headless-command.js");
  const withHeadlessFlags = (command: Command) =>
    command
      .option("-q, --quiet", "print only the final answer on stdout: no progress, no summary")
      .option(
        "-o, --output <file>",
        "also write the final answer to this file when the turn completes (- for stdout)",
      )
      .option("--ephemeral", "do not save the session")
      .option("--full-auto", "trust full and sandbox workspace-write: no approvals needed")
      .addOption(new Option("--full_auto").hideHelp())
      .option("--sandbox <level>", "read-only, workspace-write (default) or full-access")
      .option("--max-steps <n>", "stop after this many model requests")
      .option(
        "--max-budget-usd <usd>",
        "stop the run (exit 1, session saved) once it and its subagents have spent this many US dollars",
      )
      .option("-c, --continue", "continue the most recent session")
      .option("-s, --session <query>", "continue the session with this id prefix or title")
      .option(
        "-i, --image <file>",
        "attach an image: png, jpg, gif, webp (repeatable)",
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option(
        "--subagent-model <role=model>",
        "model for a subagent role this session (repeatable)",
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option("--team-name <name>", "lead this team: read its inbox every step and follow its teammates")
      .option(
        "--team-wait-ms <ms>",
        "how long to keep following working teammates after the turn (default 120000)",
      )
      .option("--auto-context", "add the code index's best matches to the turn (<codebase_context>)")
      .option("--plan", "plan mode: the lead reads and plans, and changes nothing (or agent.plan_mode)")
      .addHelpText("after", HEADLESS_OUTPUT_HELP);
  withHeadlessFlags(
    program
      .command("run <prompt>")
      .description("run one turn headless with human output: streamed text, tool lines, a summary")
      .option("--format <format>", "text (default) or json (JSONL events, as exec --json)"),
  ).action(async (prompt: string, options: HeadlessFlags & { format?: string }) =>
    run(async () =>
      (await headless()).headlessCommand(
        io,
        globals(),
        { ...options, json: options.format === "json" },
        { mode: "run", prompt },
      ),
    )(),
  );
  withHeadlessFlags(
    program
      .command("exec [prompt]")
      .description("run one turn headless for scripts: reads piped stdin, --json emits JSONL events")
      .option("--json", "emit JSONL events on stdout (nothing else goes to stdout)"),
  ).action(async (prompt: string | undefined, options: HeadlessFlags) =>
    run(async () =>
      (await headless()).headlessCommand(io, globals(), options, { mode: "exec", prompt, stdin: io }),
    )(),
  );

  const teamsModule = () => import("./commands/teams-command.js");
  const teams = program.command("teams").description("list, inspect or delete agent teams");
  teams
    .command("list")
    .description("list teams with their members and task counts")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) =>
      run(async () => (await teamsModule()).listTeams(io, options))(),
    );
  teams
    .command("show <team>")
    .description("show a team's members (state, unread messages) and its task board")
    .option("--json", "print as JSON")
    .action(async (team: string, options: { json?: boolean }) =>
      run(async () => (await teamsModule()).showTeam(io, team, options))(),
    );
  teams
    .command("delete <team>")
    .description("delete a team: config, inboxes and task board")
    .action(async (team: string) => run(async () => (await teamsModule()).deleteTeam(io, team))());

  const sessionsModule = () => import("./commands/session-commands.js");
  program
    .command("sessions [query]")
    .description("list saved sessions, newest first (filter by id prefix or title)")
    .option("--json", "print as JSON")
    .action(async (query: string | undefined, options: { json?: boolean }) =>
      run(async () => (await sessionsModule()).listSessions(io, query, options))(),
    );
  const session = program.command("session").description("rename or delete a saved session");
  session
    .command("rename <query> <title>")
    .description("give a session a new title (kept by later saves)")
    .action(async (query: string, title: string) =>
      run(async () => (await sessionsModule()).renameSession(io, query, title))(),
    );
  session
    .command("delete <query>")
    .description("delete a saved session")
    .action(async (query: string) => run(async () => (await sessionsModule()).deleteSession(io, query))());
  program
    .command("export <query>")
    .description("export a session (with its subagents' threads) as markdown or JSON")
    .option("--format <format>", "md (default) or json")
    .option("-o, --output <file>", "where to write, - for stdout (default: nyzhi-export-<time>.<format>)")
    .action(async (query: string, options: { format?: string; output?: string }) =>
      run(async () => (await sessionsModule()).exportSession(io, query, options))(),
    );
  program
    .command("models [provider]")
    .description("list known models: context window, max output, prices, tier, thinking")
    .option("--json", "print as JSON")
    .action(async (provider: string | undefined, options: { json?: boolean }) =>
      run(async () =>
        (await import("./commands/models-command.js")).modelsCommand(io, provider, options, globals()),
      )(),
    );

  const mcpModule = () => import("./commands/mcp-command.js");
  const repeatable = (value: string, previous: string[] = []) => [...previous, value];
  const mcp = program
    .command("mcp")
    .description("add, list and remove MCP servers (tools from outside nyzhi)");
  mcp
    .command("add <name> [command...]")
    .description("add a server: --url <url> for HTTP, or the command after -- for a local (stdio) server")
    .option("--url <url>", "a Streamable HTTP (or SSE) server's URL")
    .option("--header <key=value>", "an HTTP header for --url servers (repeatable)", repeatable)
    .option("--env <key=value>", "an environment variable for command servers (repeatable)", repeatable)
    .option("--scope <scope>", "project (default), global, or local (.nyzhi/config.local.toml)")
    .action(
      async (
        name: string,
        command: string[],
        options: { url?: string; header?: string[]; env?: string[]; scope?: string },
      ) => run(async () => (await mcpModule()).mcpAddCommand(io, name, command, options))(),
    );
  mcp
    .command("list")
    .description("list configured servers (config and .mcp.json); --check connects and lists their tools")
    .option("--json", "print as JSON")
    .option("--check", "connect to each server and show its status and tools (exit 1 if any fails)")
    .action(async (options: { json?: boolean; check?: boolean }) =>
      run(async () => (await mcpModule()).mcpListCommand(io, globals(), options))(),
    );
  mcp
    .command("remove <name>")
    .description(
      "remove a server from a config file (default: the first of local, project, global that has it)",
    )
    .option("--scope <scope>", "project, global or local")
    .action(async (name: string, options: { scope?: string }) =>
      run(async () => (await mcpModule()).mcpRemoveCommand(io, name, options))(),
    );

  program
    .command("agents")
    .description(
      "list the subagent roles (built-in, config, agent files, agents.json) with source and overrides",
    )
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) =>
      run(async () => (await import("./commands/agents-command.js")).agentsCommand(io, globals(), options))(),
    );

  program
    .command("doctor")
    .description(
      "check Node, sandbox, ripgrep, git, tmux, keychain, credentials, proxy, trust, index and config; exit 1 when something required is missing",
    )
    .option("--json", "print the checks as JSON")
    .action(async (options: { json?: boolean }) =>
      run(async () => (await import("./commands/doctor-command.js")).doctorCommand(io, globals(), options))(),
    );

  program
    .command("skills")
    .description("list the skills (.nyzhi/skills, .claude/skills) and custom commands of this project")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) =>
      run(async () => (await import("./commands/skills-command.js")).skillsCommand(io, globals(), options))(),
    );

  const indexModule = () => import("./commands/index-command.js");
  const index = program
    .command("index")
    .description("build or update this project's code index (semantic + full-text search)")
    .addHelpText(
      "after",
      `
Builds the index of the project (the nearest folder with .git or .nyzhi) or brings it up to date:
only files whose content changed are read again and re-embedded. Ctrl+C stops after the current
batch and keeps what was done; the next \`nyz index\` goes on from there.

The embedder is index.embedding: auto (a remote key: VOYAGE_API_KEY, OPENAI_API_KEY,
GEMINI_API_KEY; else a local transformers.js model; else full-text only), voyage, openai, gemini,
ollama, local or none. \`nyz index status\` says which one and why.

Examples:
  nyz index
  nyz index search "where is the config file parsed" -k 5
  nyz index search parseConfigFile --lang typescript --json
  nyz index search "retry" --path "packages/provider/**"`,
    )
    .action(run(async () => (await indexModule()).indexUpdateCommand(io, globals())));
  index
    .command("status")
    .description("files and chunks indexed, the embedder and why it was chosen")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) =>
      run(async () => (await indexModule()).indexStatusCommand(io, globals(), options))(),
    );
  index
    .command("search <query>")
    .description("search the index: identifiers, words or a question")
    .option("--json", "print the results as JSON")
    .option("-k <n>", "number of results (1-100, default 10)")
    .option("--path <glob>", "only files matching this glob (relative to the project root)")
    .option("--lang <language>", "only this language (typescript, python, go, rust, text, ...)")
    .action(async (query: string, options: { json?: boolean; k?: string; path?: string; lang?: string }) =>
      run(async () => (await indexModule()).indexSearchCommand(io, globals(), query, options))(),
    );
  index
    .command("clear")
    .description("delete this project's index")
    .action(run(async () => (await indexModule()).indexClearCommand(io, globals())));
  // The app session's code index in a child process, started by nyz itself (`openIndexProcess`).
  program
    .command("__index-process", { hidden: true })
    .action(run(async () => (await import("./commands/index-process-command.js")).indexProcessCommand()));

  const authModule = () => import("./commands/auth-commands.js");
  program
    .command("login [provider]")
    .description("log in to a provider (OAuth where offered, else an API key); asks which when omitted")
    .option(
      "--api-key [key]",
      "save an API key instead of the browser login: the key, - to read it from stdin, or none to be asked",
    )
    .option("--label <name>", "account label, to keep several accounts for one provider")
    .addHelpText(
      "after",
      `
Without a terminal (scripts, CI, ssh host cmd) a login needs the key given:
  printf %s "$ANTHROPIC_API_KEY" | nyz login anthropic --api-key -
Otherwise it fails at once (exit 2) instead of waiting for a browser or a prompt.
`,
    )
    .action(async (provider: string | undefined, options: { apiKey?: boolean | string; label?: string }) =>
      run(async () => (await authModule()).loginCommand(io, provider, options))(),
    );
  program
    .command("logout <provider>")
    .description("remove stored credentials for a provider")
    .option("--account <label>", "remove only this account")
    .action(async (provider: string, options: { account?: string }) =>
      run(async () => (await authModule()).logoutCommand(io, provider, options))(),
    );
  program
    .command("auth")
    .description("credential commands (see `nyz auth status`)")
    .command("status")
    .description("show where each provider's credential comes from (secrets masked)")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) =>
      run(async () => (await authModule()).authStatusCommand(io, globals(), options))(),
    );

  return program;
}

/** The names (and aliases) of `nyz`'s commands, `help` included. */
function commandNames(program: Command): Set<string> {
  return new Set(["help", ...program.commands.flatMap((command) => [command.name(), ...command.aliases()])]);
}

/**
 * Runs `nyz` with the given arguments and returns the exit code. No command (`nyz`,
 * `nyz "prompt"`, `nyz -c`) opens the interactive app on a terminal.
 */
export async function main(args: readonly string[], given: CommandIo = processIo()): Promise<number> {
  // Every line nyz prints passes here: no credential it holds is ever shown.
  const io = redactedIo(given);
  markStartup("main");
  let exitCode: number = ExitCode.success;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    if (opensApp(args, commandNames(program))) {
      const { appCommand } = await import("./commands/app-command.js");
      const terminal = given.stdin?.isTTY === true && process.stdout.isTTY === true;
      const code = await appCommand(io, args, { terminal });
      if (code !== "not-app") return code;
    }
    await program.parseAsync([...args], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return ExitCode.success;
      return ExitCode.usage;
    }
    const { reportError } = await import("./io/report-error.js");
    return reportError(io, error);
  }
}
