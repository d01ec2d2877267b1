import { hiddenPathMounts } from "../../engines/sandbox/blocked-dotfiles.js";
import { type BwrapStatus, detectBwrap } from "../../engines/sandbox/detect-bwrap.js";
import {
  DeniedPathsCache,
  type DeniedPathsFound,
  type FindDeniedPathsOptions,
  findDeniedPaths,
} from "../../engines/sandbox/find-denied-paths.js";
import { resolveRealPath } from "../../engines/sandbox/resolve-real-path.js";
import { SandboxError } from "../../engines/sandbox/sandbox-error.js";
import { SANDBOX_SERVICE, sandboxSettingsOf } from "../../engines/sandbox/sandbox-settings.js";
import { ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { buildCommandEnvironment, shellEnvironmentOf } from "./command-environment.js";
import { extractCommandPaths } from "./extract-command-paths.js";
import type { ShellRunOptions } from "./run-shell-command.js";
import { withStartupCommands } from "./startup-commands.js";

export const BWRAP_MISSING_NOTICE =
  "bubblewrap is not installed: commands run unsandboxed, with path checks only";

export const INCOMPLETE_MASKS_NOTICE =
  "the workspace is too large to search completely for deny_paths matches: denied files the search did not reach are refused only when a command names them";

/** Services objects (one per agent) that have already been told bubblewrap is missing. */
const notified = new WeakSet<object>();
/** Agents (their `context.agent`, one object per agent) told that the denied-path search was cut short. */
const notifiedIncomplete = new WeakSet<object>();
/** Per session: keyed by its sandbox settings object, which every agent of the session shares. */
const deniedPathsCaches = new WeakMap<object, DeniedPathsCache>();

export interface CommandSandbox {
  /** Passed to runShellCommand; undefined runs the command unsandboxed. */
  sandbox: ShellRunOptions["sandbox"];
  /** A one-time line for the model when commands run unsandboxed although the level asks for less. */
  notice?: string;
  /** The command's environment: credentials left out (see buildCommandEnvironment). */
  env: Record<string, string>;
  /** What to run: the command after `shell.startup_commands` (see withStartupCommands). */
  script: string;
}

/**
 * Decides how a command runs for this agent: under bubblewrap when the level is not full-access
 * and bubblewrap works; else (workspace-write only) unsandboxed after checking the paths the
 * command visibly writes. Without bubblewrap a read-only sandbox refuses commands outright,
 * since nothing else could keep them from writing. Under bubblewrap every existing path that
 * `deny_paths` covers is masked, so a command cannot read it however it names it. The environment
 * is scrubbed of credentials at every level.
 */
export async function prepareCommandSandbox(
  context: ToolContext,
  command: string,
  detect: () => Promise<BwrapStatus> = detectBwrap,
): Promise<CommandSandbox> {
  const settings = sandboxSettingsOf(context);
  const shellEnvironment = shellEnvironmentOf(context);
  const { env } = buildCommandEnvironment(process.env, shellEnvironment);
  const script = withStartupCommands(command, shellEnvironment.startupCommands ?? []);
  if (settings.level === "full-access") return { sandbox: undefined, env, script };
  const status = await detect();
  if (status.available) {
    const roots = await Promise.all(settings.roots.map((root) => resolveRealPath(root, context.cwd)));
    const denied = deniedPaths(context, {
      patterns: settings.denyPaths ?? [],
      roots,
      keepVisible: [context.cwd],
    });
    // allow_write widens workspace-write only; block_dotfiles and deny_paths hide at both levels.
    const allowWrite =
      settings.level === "workspace-write"
        ? await Promise.all((settings.allowWrite ?? []).map((path) => resolveRealPath(path, context.cwd)))
        : [];
    const hidden = hiddenPathMounts({
      denied: denied.paths,
      blocked: settings.blockedPaths ?? [],
      allowed: settings.allowRead ?? [],
      writable: allowWrite,
      keepVisible: [...roots, context.cwd],
    });
    const sandbox = {
      level: settings.level,
      roots,
      allowNetwork: settings.allowNetwork,
      bwrap: status,
      controlFiles: settings.controlFiles ?? [],
      allowWrite,
    };
    const result: CommandSandbox = {
      sandbox: { ...sandbox, masks: hidden.masks, reveal: hidden.reveal },
      env,
      script,
    };
    if (!denied.complete && !notifiedIncomplete.has(context.agent)) {
      notifiedIncomplete.add(context.agent);
      result.notice = INCOMPLETE_MASKS_NOTICE;
    }
    return result;
  }
  const why =
    status.reason === "missing"
      ? "bubblewrap is not installed"
      : `bubblewrap does not work here (${status.detail})`;
  if (settings.level === "read-only") {
    throw new ToolError(
      `Commands cannot run in the read-only sandbox: ${why}, and nothing else can stop a command from writing. Install bubblewrap (bwrap) or use the workspace-write sandbox.`,
    );
  }
  await checkVisibleWrites(context, command);
  const notice = notified.has(context.services)
    ? undefined
    : status.reason === "missing"
      ? BWRAP_MISSING_NOTICE
      : `${why}: commands run unsandboxed, with path checks only`;
  notified.add(context.services);
  return notice === undefined
    ? { sandbox: undefined, env, script }
    : { sandbox: undefined, notice, env, script };
}

function deniedPaths(context: ToolContext, options: FindDeniedPathsOptions): DeniedPathsFound {
  if (options.patterns.length === 0) return { paths: [], complete: true };
  const key = context.services[SANDBOX_SERVICE];
  if (typeof key !== "object" || key === null) return findDeniedPaths(options);
  let cache = deniedPathsCaches.get(key);
  if (!cache) {
    cache = new DeniedPathsCache();
    deniedPathsCaches.set(key, cache);
  }
  return cache.find(options);
}

async function checkVisibleWrites(context: ToolContext, command: string): Promise<void> {
  await context.paths.resolve(context.cwd, "write").catch(rethrowAsToolError);
  for (const use of extractCommandPaths(command)) {
    if (use.access === "write") await context.paths.resolve(use.path, "write").catch(rethrowAsToolError);
  }
}

function rethrowAsToolError(error: unknown): never {
  if (error instanceof SandboxError)
    throw new ToolError(`Blocked by the sandbox: ${error.message}`, { cause: error });
  throw error;
}
