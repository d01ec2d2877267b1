import { homedir } from "node:os";
import { join } from "node:path";
import type { resolveDirs, TrustMode } from "@nyzhi/config";
import { shellSandboxPaths } from "../engines/sandbox/blocked-dotfiles.js";
import { controlScriptsOf } from "../engines/sandbox/control-files.js";
import { createPathGuard, type SandboxPathGuard } from "../engines/sandbox/path-guard.js";
import type { SandboxLevel } from "../engines/sandbox/sandbox-level.js";
import type { SandboxSettings } from "../engines/sandbox/sandbox-settings.js";
import { createPermissionPolicy } from "../permissions/permission-policy.js";
import type { PermissionPolicy } from "../permissions/permission-types.js";
import type { CreateAgentRuntimeOptions } from "./agent-runtime-types.js";

/** The runtime's bounds: the sandbox, the path guard, the permission policy and the trust mode. */
export interface RuntimeSafety {
  level: SandboxLevel;
  guard: SandboxPathGuard;
  sandbox: SandboxSettings;
  policy: PermissionPolicy;
  /** A path guard over another root (an agent's worktree) with the same rules. */
  guardFor(root: string, cwd: string): SandboxPathGuard;
  /** The trust mode approvals follow now (the configured one unless `setTrustMode` changed it). */
  trustMode(): TrustMode;
  setTrustMode(mode: TrustMode | undefined): void;
}

/** Builds the sandbox, path guard and permission policy of a runtime from its config. */
export function buildSafety(
  options: Pick<CreateAgentRuntimeOptions, "config" | "cwd" | "sandbox" | "mcp">,
  where: { projectRoot: string; env: NodeJS.ProcessEnv; dirs: ReturnType<typeof resolveDirs> },
): RuntimeSafety {
  const { config, cwd } = options;
  const { projectRoot, env, dirs } = where;
  const level = options.sandbox ?? (config.agent.sandbox as SandboxLevel);
  const roots = [projectRoot];
  const trust = config.agent.trust;
  const sandboxPaths = shellSandboxPaths(config.shell.sandbox, {
    home: env.HOME || homedir(),
    projectRoot,
    authFile: dirs.auth,
  });
  const guardFor = (root: string, guardCwd: string) =>
    createPathGuard({
      level,
      roots: [root],
      cwd: guardCwd,
      denyPaths: trust.deny_paths,
      configDir: dirs.config,
      ...sandboxPaths,
    });
  const controlFiles = [
    join(dirs.config, "config.toml"),
    ...controlScriptsOf({
      hookCommands: config.agent.hooks.map((hook) => hook.command),
      programs: (options.mcp?.servers ?? []).flatMap((spec) =>
        spec.transport === "stdio" ? [[spec.command, ...spec.args]] : [],
      ),
      projectRoot,
    }),
  ];
  // Shift+Tab's "auto-accept edits" raises the configured mode to autoedit while it is on.
  let trustOverride: TrustMode | undefined;
  const policy = createPermissionPolicy({ trust, roots, cwd, controlFiles, modeNow: () => trustOverride });
  return {
    level,
    guard: guardFor(projectRoot, cwd),
    guardFor,
    sandbox: {
      level,
      roots,
      allowNetwork: (config.shell.sandbox.allow_network ?? []).length > 0,
      denyPaths: trust.deny_paths,
      controlFiles,
      ...sandboxPaths,
    },
    policy,
    trustMode: () => trustOverride ?? trust.mode,
    setTrustMode(mode) {
      trustOverride = mode;
    },
  };
}
