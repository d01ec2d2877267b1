import { resolve } from "node:path";
import type { PathAccess, PathGuard, PathGuardResolveOptions } from "./path-guard-types.js";
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
  /**
   * nyzhi's config dir. A write declared `configFile` (a tool writing one of nyzhi's own files,
   * e.g. the global agents.json) may land inside it under `workspace-write`; without it, such a
   * write is judged like any other.
   */
  configDir?: string;
  /**
   * Paths `shell.sandbox.block_dotfiles` hides (see blockedDotfiles), absolute: refused for reads
   * and writes like `deny_paths`, except inside `allowRead`.
   */
  blockedPaths?: readonly string[];
  /** `shell.sandbox.allow_read` and `allow_write`, absolute: let through although inside a blocked path. */
  allowRead?: readonly string[];
  /** `shell.sandbox.allow_write`, absolute: writable under `workspace-write` besides the roots. */
  allowWrite?: readonly string[];
}

interface PreparedGuard {
  roots: string[];
  deny: PathPatterns;
  configDir?: string;
  /** Each blocked path as written and as its real path. */
  blocked: string[];
  allowRead: string[];
  allowWrite: string[];
}

/** Each path as given and as its real path (symlinks followed), deduped. */
async function bothForms(paths: readonly string[] | undefined, cwd: string): Promise<string[]> {
  const forms = await Promise.all(
    (paths ?? []).map(async (path) => [resolve(cwd, path), await resolveRealPath(path, cwd)]),
  );
  return [...new Set(forms.flat())];
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
 * A write declared `configFile` may also land in nyzhi's config dir under `workspace-write`, and
 * any write in an `allowWrite` path. `blockedPaths` are refused like `deny_paths`, except inside
 * `allowRead`.
 */
export function createPathGuard(options: PathGuardOptions): SandboxPathGuard {
  const { level, cwd } = options;
  let prepared: Promise<PreparedGuard> | undefined;
  const prepare = () => {
    prepared ??= (async () => {
      const roots = await Promise.all(options.roots.map((root) => resolveRealPath(root, cwd)));
      const deny = compilePathPatterns(options.denyPaths ?? [], roots);
      const lists = {
        blocked: await bothForms(options.blockedPaths, cwd),
        allowRead: await bothForms(options.allowRead, cwd),
        allowWrite: await bothForms(options.allowWrite, cwd),
      };
      if (options.configDir === undefined) return { roots, deny, ...lists };
      return { roots, deny, ...lists, configDir: await resolveRealPath(options.configDir, cwd) };
    })();
    return prepared;
  };

  return {
    level,
    realRoots: async () => (await prepare()).roots,
    async resolve(path: string, access: PathAccess, use: PathGuardResolveOptions = {}): Promise<string> {
      const { roots, deny, configDir, blocked, allowRead, allowWrite } = await prepare();
      const lexical = resolve(cwd, path);
      const real = await resolveRealPath(lexical, cwd);
      const denied = deny.match(lexical) ?? deny.match(real);
      if (denied !== undefined) {
        throw new SandboxError(`Access to ${real} is denied by the deny_paths rule "${denied}".`);
      }
      const within = (list: readonly string[]) =>
        list.find((entry) => isWithin(lexical, entry) || isWithin(real, entry));
      const hidden = within(blocked);
      if (hidden !== undefined && within(allowRead) === undefined) {
        throw new SandboxError(
          `Access to ${real} is blocked by shell.sandbox.block_dotfiles (${hidden} holds credentials); list it in shell.sandbox.allow_read to allow it.`,
        );
      }
      if (access === "read" || level === "full-access") return real;
      if (level === "read-only") {
        throw new SandboxError(`Writing ${real} is not allowed: the sandbox is read-only.`);
      }
      if (use.configFile && configDir !== undefined && isWithin(real, configDir)) return real;
      if (allowWrite.some((path) => isWithin(real, path))) return real;
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
