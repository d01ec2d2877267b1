/** How a tool touches a path it names, for the sandbox and deny rules. */
export type PathAccess = "read" | "write";

/** How a path is about to be used, beyond read or write. */
export interface PathGuardResolveOptions {
  /** See `PathUse.configFile`: honoured only for a real path inside the guard's config dir. */
  configFile?: boolean;
}

/** Checks paths against the sandbox's roots; path-guard.ts implements it. */
export interface PathGuard {
  /**
   * Resolves `path` (relative to the working directory) to a real absolute path, following
   * symlinks and normalising `..`, and throws a SandboxError when `access` is not allowed there.
   */
  resolve(path: string, access: PathAccess, options?: PathGuardResolveOptions): Promise<string>;
}
