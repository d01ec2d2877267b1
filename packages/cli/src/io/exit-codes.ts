/** Process exit codes, documented in `nyz --help` and the README. */
export const ExitCode = {
  /** The command did what was asked. */
  success: 0,
  /** It failed: bad config, provider or I/O error, a failed turn. */
  failure: 1,
  /** The command line was wrong: unknown command or flag, missing argument. */
  usage: 2,
  /** Interrupted by Ctrl-C (SIGINT); work so far is saved. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * `NyzhiError` codes that exit with `ExitCode.usage`: the command line (or a value it names) was
 * wrong — an unknown flag value, an unknown provider id, a login that needs input nobody can type.
 */
export const USAGE_ERROR_CODES: ReadonlySet<string> = new Set([
  "usage",
  "provider_unknown",
  "login_needs_input",
]);
