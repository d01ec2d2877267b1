import { type BwrapStatus, detectBwrap } from "../../sandbox/detect-bwrap.js";
import { resolveRealPath } from "../../sandbox/resolve-real-path.js";
import { SandboxError } from "../../sandbox/sandbox-error.js";
import { sandboxSettingsOf } from "../../sandbox/sandbox-settings.js";
import { ToolError } from "../define-tool.js";
import type { ToolContext } from "../tool-types.js";
import { extractCommandPaths } from "./extract-command-paths.js";
import type { ShellRunOptions } from "./run-shell-command.js";

export const BWRAP_MISSING_NOTICE =
  "bubblewrap is not installed: commands run unsandboxed, with path checks only";

/** Services objects (one per agent) that have already been told bubblewrap is missing. */
const notified = new WeakSet<object>();

export interface CommandSandbox {
  /** Passed to runShellCommand; undefined runs the command unsandboxed. */
  sandbox: ShellRunOptions["sandbox"];
  /** A one-time line for the model when commands run unsandboxed although the level asks for less. */
  notice?: string;
}

/**
 * Decides how a command runs for this agent: under bubblewrap when the level is not full-access
 * and bubblewrap works; else (workspace-write only) unsandboxed after checking the paths the
 * command visibly writes. Without bubblewrap a read-only sandbox refuses commands outright,
 * since nothing else could keep them from writing.
 */
export async function prepareCommandSandbox(
  context: ToolContext,
  command: string,
  detect: () => Promise<BwrapStatus> = detectBwrap,
): Promise<CommandSandbox> {
  const settings = sandboxSettingsOf(context);
  if (settings.level === "full-access") return { sandbox: undefined };
  const status = await detect();
  if (status.available) {
    const roots = await Promise.all(settings.roots.map((root) => resolveRealPath(root, context.cwd)));
    return { sandbox: { level: settings.level, roots, allowNetwork: settings.allowNetwork, bwrap: status } };
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
  return notice === undefined ? { sandbox: undefined } : { sandbox: undefined, notice };
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
