import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { isWithin } from "./resolve-real-path.js";

/**
 * The agent's control files: what decides, at the next start, what nyzhi (or Claude Code) runs
 * and allows without asking. `.nyzhi/**` (config, rules, commands, skills, role files),
 * `.claude/settings*.json`, `.claude/agents/**`, `.claude/commands/**`, `.claude/hooks/**`,
 * `.mcp.json`, and the scripts that hooks and MCP servers name. Writing one always asks below
 * trust mode `full`; `bash` sees them read-only under bubblewrap (see control-file-mounts.ts).
 *
 * Left out of `.nyzhi/`: `notepads/` and `context/` (working notes nyzhi's own tools write) and
 * `agents.json` (define_agent's store: a definition is a prompt, a tool list and a model,
 * checked before it is written, and a subagent's policy is the intersection with its parent's,
 * so it can neither run a command nor widen what the parent may do).
 */
export interface ControlFiles {
  /** Workspace roots (real paths): names are matched on the path below the root that holds it. */
  roots: readonly string[];
  /** Further control files by absolute path: hook and MCP server scripts, the global config. */
  files: readonly string[];
}

const NYZHI_DATA_DIRECTORIES = new Set(["notepads", "context"]);
const CLAUDE_CONTROL_DIRECTORIES = new Set(["agents", "commands", "hooks"]);
const CLAUDE_SETTINGS = /^settings(\..*)?\.json$/;

/** The rule that makes `path` (absolute) a control file, for messages; undefined when it is not one. */
export function matchControlFile(path: string, control: ControlFiles): string | undefined {
  if (control.files.some((file) => resolve(file) === path)) return "a script a hook or MCP server runs";
  const root = control.roots.find((candidate) => isWithin(path, candidate));
  const below = root === undefined ? path : relative(root, path);
  const parts = below.split(sep).filter((part) => part.length > 0);
  for (let index = 0; index < parts.length; index++) {
    const rest = parts.slice(index + 1);
    switch (parts[index]) {
      case ".nyzhi":
        if (!isNyzhiData(rest)) return ".nyzhi/**";
        break;
      case ".claude":
        if (rest.length === 0) return ".claude";
        if (rest.length === 1 && CLAUDE_SETTINGS.test(rest[0] ?? "")) return ".claude/settings*.json";
        if (CLAUDE_CONTROL_DIRECTORIES.has(rest[0] ?? "")) return `.claude/${rest[0]}/**`;
        break;
      case ".mcp.json":
        if (rest.length === 0) return ".mcp.json";
        break;
    }
  }
  return undefined;
}

/** `.nyzhi/notepads/**`, `.nyzhi/context/**` and `.nyzhi/agents.json`, given the parts below `.nyzhi`. */
function isNyzhiData(below: readonly string[]): boolean {
  const [first] = below;
  if (first === undefined) return false;
  return NYZHI_DATA_DIRECTORIES.has(first) || (first === "agents.json" && below.length === 1);
}

/** Programs that run the script named by their first operand (`bash x.sh`, `node server.mjs`). */
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "node",
  "deno",
  "bun",
  "tsx",
  "python",
  "python3",
  "ruby",
  "perl",
  "php",
]);

/**
 * The project files a command runs, best effort: its first word when that is a path, and for an
 * interpreter its first operand. Only paths inside `projectRoot` (resolved against it) count;
 * `$VARIABLES`, globs and programs found on PATH are not followed.
 */
export function scriptsNamedBy(words: readonly string[], projectRoot: string): string[] {
  const [program, ...operands] = words;
  if (program === undefined) return [];
  const named: string[] = [];
  if (program.includes("/")) named.push(program);
  // `bash -c '…'`, `node -e '…'`: the operand is code, not a file.
  const inline = operands.some((word) => word === "-c" || word === "-e");
  if (INTERPRETERS.has(basename(program)) && !inline) {
    const script = operands.find((word) => !word.startsWith("-"));
    if (script !== undefined) named.push(script);
  }
  return named
    .filter((word) => !/[$`*?]/.test(word))
    .map((word) => (isAbsolute(word) ? resolve(word) : resolve(projectRoot, word)))
    .filter((path) => isWithin(path, projectRoot));
}

/** A command line split into words, honouring simple single and double quotes. */
export function splitCommandWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/"([^"]*)"|'([^']*)'|([^\s;&|<>()]+)/g)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  }
  return words;
}

/**
 * The scripts a project's hooks and MCP servers run (see scriptsNamedBy): `hookCommands` are
 * shell command lines, `programs` are argv lists (`[command, ...args]` of stdio MCP servers).
 */
export function controlScriptsOf(options: {
  hookCommands: readonly string[];
  programs: ReadonlyArray<readonly string[]>;
  projectRoot: string;
}): string[] {
  const scripts = [
    ...options.hookCommands.flatMap((command) =>
      scriptsNamedBy(splitCommandWords(command), options.projectRoot),
    ),
    ...options.programs.flatMap((argv) => scriptsNamedBy(argv, options.projectRoot)),
  ];
  return [...new Set(scripts)];
}
