import { realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DeniedPath } from "./find-denied-paths.js";
import { isWithin } from "./resolve-real-path.js";

/**
 * Where credentials live in a home directory: what `shell.sandbox.block_dotfiles` (on by default)
 * hides from the file tools and from commands under bubblewrap. Only stores of secrets, not the
 * configuration toolchains read on every run (`~/.gitconfig`, `~/.cargo/config.toml`, `~/.nvm`),
 * so builds keep working; `deny_paths` covers anything else.
 */
export const CREDENTIAL_DOTFILES: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".config/gh",
  ".config/hub",
  ".config/gcloud",
  ".config/op",
  ".local/share/keyrings",
  ".password-store",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".terraform.d/credentials.tfrc.json",
  ".bash_history",
  ".zsh_history",
];

/** `~` and `~/x` → under `home`; a relative path → against `base`; normalised. */
export function expandConfiguredPath(path: string, options: { home: string; base: string }): string {
  const trimmed = path.trim();
  if (trimmed === "~") return resolve(options.home);
  if (trimmed.startsWith("~/")) return resolve(options.home, trimmed.slice(2));
  return resolve(options.base, trimmed);
}

export interface BlockedDotfilesOptions {
  /** `shell.sandbox.block_dotfiles`. */
  enabled: boolean;
  home: string;
  /** More absolute paths to hide with them (nyzhi's own auth.json). */
  extra?: readonly string[];
  /**
   * Absolute paths the user let through (`shell.sandbox.allow_read` and `allow_write`): a blocked
   * entry that one of them is or contains is not blocked at all.
   */
  allowed: readonly string[];
}

/**
 * The absolute paths `block_dotfiles` hides (existing or not): each CREDENTIAL_DOTFILES entry under
 * `home` plus `extra`, except those an allowed path is or contains (`allow_read = ["~/.config/gh"]`
 * un-hides `~/.config/gh`; `["~"]` un-hides all). An allowed path *inside* an entry
 * (`~/.ssh/known_hosts`) keeps the entry blocked; the path guard and the mounts let that one path
 * through (see blockedMounts).
 */
export function blockedDotfiles(options: BlockedDotfilesOptions): string[] {
  if (!options.enabled) return [];
  const entries = [
    ...CREDENTIAL_DOTFILES.map((entry) => join(options.home, entry)),
    ...(options.extra ?? []),
  ];
  return entries.filter((entry) => !options.allowed.some((allowed) => isWithin(entry, allowed)));
}

/** What bubblewrap mounts for `block_dotfiles` and `deny_paths` (see BwrapCommandOptions). */
export interface HiddenPathMounts {
  /** Paths to hide (real), in mount order; none inside an earlier directory mask except under a reveal. */
  masks: DeniedPath[];
  /** Allowed paths (real) inside a masked directory, bound back into it. */
  reveal: Array<{ path: string; writable: boolean }>;
}

/**
 * The mounts that hide the blocked paths and the `deny_paths` matches from a command. A blocked
 * path that contains a workspace root or the working directory stays visible (hiding it would
 * hide the workspace). An allowed path inside a masked directory (`allow_read =
 * ["~/.ssh/known_hosts"]`) is bound back, writable when `writable` holds it (allow_write under
 * workspace-write), unless `deny_paths` covers it; a `deny_paths` match inside a revealed path is
 * masked again after it. A few `stat`s per command: the blocked entries are literal paths.
 */
export function hiddenPathMounts(options: {
  denied: readonly DeniedPath[];
  blocked: readonly string[];
  allowed: readonly string[];
  writable: readonly string[];
  keepVisible: readonly string[];
}): HiddenPathMounts {
  const blocked = options.blocked
    .map(existing)
    .filter((found): found is DeniedPath => found !== undefined)
    .filter((found) => !options.keepVisible.some((keep) => isWithin(keep, found.path)))
    // The sandbox's /tmp is a private tmpfs already (a root under it is bound back, with its masks).
    .filter(
      (found) =>
        !isWithin(found.path, "/tmp") || options.keepVisible.some((keep) => isWithin(found.path, keep)),
    );
  const all = [...options.denied, ...blocked].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const top: DeniedPath[] = [];
  for (const mask of all) {
    const covered = top.some(
      (kept) => isWithin(mask.path, kept.path) && (kept.kind === "directory" || kept.path === mask.path),
    );
    if (!covered) top.push(mask);
  }
  const writable = options.writable.map((path) => existing(path)?.path ?? path);
  const reveal: HiddenPathMounts["reveal"] = [];
  for (const allowed of options.allowed) {
    const found = existing(allowed);
    if (!found || reveal.some((shown) => shown.path === found.path)) continue;
    const inMaskedDirectory = top.some(
      (mask) => mask.kind === "directory" && mask.path !== found.path && isWithin(found.path, mask.path),
    );
    const denied = options.denied.some((mask) => isWithin(found.path, mask.path));
    if (!inMaskedDirectory || denied) continue;
    reveal.push({ path: found.path, writable: writable.some((path) => isWithin(found.path, path)) });
  }
  const maskedAgain = options.denied.filter(
    (mask) => !top.includes(mask) && reveal.some((shown) => isWithin(mask.path, shown.path)),
  );
  return { masks: [...top, ...maskedAgain], reveal };
}

function existing(path: string): DeniedPath | undefined {
  try {
    const real = realpathSync.native(path);
    return { path: real, kind: statSync(real).isDirectory() ? "directory" : "file" };
  } catch {
    return undefined;
  }
}

/** The sandbox's path lists from `[shell.sandbox]`, expanded (see SandboxSettings and PathGuardOptions). */
export interface ShellSandboxPaths {
  allowWrite: string[];
  /** `allow_read` and `allow_write` together: a writable path is readable too. */
  allowRead: string[];
  blockedPaths: string[];
}

/**
 * Expands `[shell.sandbox]` for the guard and the command sandbox: `~` against `home`, relative
 * paths against the project root, and nyzhi's own credential file (`authFile`) hidden with the
 * home directory's.
 */
export function shellSandboxPaths(
  settings: { allow_read: readonly string[]; allow_write: readonly string[]; block_dotfiles: boolean },
  options: { home: string; projectRoot: string; authFile: string },
): ShellSandboxPaths {
  const expand = (path: string) =>
    expandConfiguredPath(path, { home: options.home, base: options.projectRoot });
  const allowWrite = settings.allow_write.filter((path) => path.trim() !== "").map(expand);
  const allowRead = [...settings.allow_read.filter((path) => path.trim() !== "").map(expand), ...allowWrite];
  const blockedPaths = blockedDotfiles({
    enabled: settings.block_dotfiles,
    home: options.home,
    extra: [options.authFile],
    allowed: allowRead,
  });
  return { allowWrite, allowRead, blockedPaths };
}
