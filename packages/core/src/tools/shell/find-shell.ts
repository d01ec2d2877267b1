import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { isWithin } from "../../engines/sandbox/resolve-real-path.js";

/** The directory bubblewrap replaces with a private, empty tmpfs (see buildBwrapCommand). */
const SANDBOX_PRIVATE_TMP = "/tmp";
/** Where a system bash lives; both exist inside bubblewrap, which binds `/` read-only. */
const SYSTEM_BASHES = ["/bin/bash", "/usr/bin/bash"];

let cached: { pathVariable: string; host: string; sandboxed: string } | undefined;

/**
 * The shell commands run with: `bash`, else `/bin/sh`; looked up once per `PATH` value.
 * Unsandboxed, the first `bash` on `PATH` (then /bin, /usr/bin) — the user's own. Under
 * bubblewrap, a bash that exists inside: /bin/bash or /usr/bin/bash first, then one on `PATH`,
 * never one under /tmp (private and empty in there), so a `PATH` entry under /tmp on the host
 * cannot name a shell the sandbox does not have.
 */
export function findShell(options: { sandboxed?: boolean } = {}): string {
  const pathVariable = process.env.PATH ?? "";
  if (cached?.pathVariable !== pathVariable) {
    const onPath = pathVariable
      .split(delimiter)
      .filter((directory) => directory !== "")
      .map((directory) => join(directory, "bash"));
    cached = {
      pathVariable,
      host: [...onPath, ...SYSTEM_BASHES].find(isExecutable) ?? "/bin/sh",
      sandboxed:
        [...SYSTEM_BASHES, ...onPath].find(
          (candidate) => isExecutable(candidate) && !underPrivateTmp(candidate),
        ) ?? "/bin/sh",
    };
  }
  return options.sandboxed ? cached.sandboxed : cached.host;
}

/**
 * What to tell the model after a command exited 127 (command not found) under bubblewrap: /tmp in
 * there is private and empty (only the workspace roots are bound into it), so a program under /tmp
 * on the host — a `PATH` entry under /tmp especially — is not found.
 */
export function notFoundInSandboxHint(options: {
  pathVariable: string | undefined;
  roots: readonly string[];
}): string {
  const missing = (options.pathVariable ?? "")
    .split(delimiter)
    .filter(
      (directory) => underPrivateTmp(directory) && !options.roots.some((root) => isWithin(directory, root)),
    );
  const entries = missing.length > 0 ? ` (PATH entries not there: ${[...new Set(missing)].join(", ")})` : "";
  return `command not found inside the sandbox: commands run under bubblewrap, where ${SANDBOX_PRIVATE_TMP} is private and empty except for the workspace, so programs under ${SANDBOX_PRIVATE_TMP} on this machine are not there${entries}; use a program installed outside ${SANDBOX_PRIVATE_TMP} or inside the workspace`;
}

function isExecutable(candidate: string): boolean {
  try {
    accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` (or, when it exists, its real path) is under /tmp. */
function underPrivateTmp(path: string): boolean {
  if (isWithin(path, SANDBOX_PRIVATE_TMP)) return true;
  try {
    return isWithin(realpathSync(path), SANDBOX_PRIVATE_TMP);
  } catch {
    return false;
  }
}
