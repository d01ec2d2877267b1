import { resolve } from "node:path";
import type { PathAccess, PathGuard } from "../tools/tool-types.js";
import { compilePathPatterns, type PathPatterns } from "./path-patterns.js";
import { isWithin, resolveRealPath } from "./resolve-real-path.js";
import { SandboxError } from "./sandbox-error.js";
import type { SandboxLevel } from "./sandbox-level.js";

export interface PathGuardOptions {
  level: SandboxLevel;
  /** Workspace roots writable under `workspace-write`; their real paths are used. */
  roots: readonly string[];
  /** Relative paths resolve against it. */
  cwd: string;
  /** `deny_paths` patterns: refused for reads and writes alike, at every level. */
  denyPaths?: readonly string[];
}

/** A PathGuard that also says which level and roots it enforces (for messages and the bash tool). */
export interface SandboxPathGuard extends PathGuard {
  readonly level: SandboxLevel;
  /** The real paths of the roots. */
  realRoots(): Promise<string[]>;
}

/**
 * Checks every path a tool names before it touches it. The check is on the real path (symlinks
 * followed, `..` normalised), so a link inside the workspace that points outside is outside.
 * Reads are allowed anywhere except where `deny_paths` match; writes follow the sandbox level.
 */
export function createPathGuard(options: PathGuardOptions): SandboxPathGuard {
  const { level, cwd } = options;
  let prepared: Promise<{ roots: string[]; deny: PathPatterns }> | undefined;
  const prepare = () => {
    prepared ??= (async () => {
      const roots = await Promise.all(options.roots.map((root) => resolveRealPath(root, cwd)));
      return { roots, deny: compilePathPatterns(options.denyPaths ?? [], roots) };
    })();
    return prepared;
  };

  return {
    level,
    realRoots: async () => (await prepare()).roots,
    async resolve(path: string, access: PathAccess): Promise<string> {
      const { roots, deny } = await prepare();
      const lexical = resolve(cwd, path);
      const real = await resolveRealPath(lexical, cwd);
      const denied = deny.match(lexical) ?? deny.match(real);
      if (denied !== undefined) {
        throw new SandboxError(`Access to ${real} is denied by the deny_paths rule "${denied}".`);
      }
      if (access === "read" || level === "full-access") return real;
      if (level === "read-only") {
        throw new SandboxError(`Writing ${real} is not allowed: the sandbox is read-only.`);
      }
      if (!roots.some((root) => isWithin(real, root))) {
        const where =
          roots.length === 1 ? `the workspace ${roots[0]}` : `the workspace roots ${roots.join(", ")}`;
        const via = real === lexical ? "" : ` (${path} resolves there through a symbolic link or "..")`;
        throw new SandboxError(`Writing ${real} is not allowed: it is outside ${where}${via}.`);
      }
      return real;
    },
  };
}
