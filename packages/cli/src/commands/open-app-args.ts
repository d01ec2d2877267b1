/** Options of `nyz [prompt]`: the app's own and the global ones. */
const VALUE_OPTIONS = new Set([
  "-p",
  "--provider",
  "-m",
  "--model",
  "-y",
  "--trust",
  "-s",
  "--session",
  "--sandbox",
]);
const FLAG_OPTIONS = new Set(["-c", "--continue", "--trust-project"]);

/**
 * Whether `args` open the app instead of running a command: no command name (and no help or
 * version flag) comes first once the options are skipped. `nyz`, `nyz "fix the bug"`, `nyz -c`.
 */
export function opensApp(args: readonly string[], commandNames: ReadonlySet<string>): boolean {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-h" || arg === "--help" || arg === "-V" || arg === "--version") return false;
    if (arg === "--") return true;
    if (VALUE_OPTIONS.has(arg)) {
      index++;
      continue;
    }
    if (FLAG_OPTIONS.has(arg) || /^--[\w-]+=/.test(arg)) continue;
    if (arg.startsWith("-") && arg !== "-") return false;
    return !commandNames.has(arg);
  }
  return true;
}
