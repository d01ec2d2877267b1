/**
 * `shell.startup_commands`: each is run, in order, in the same shell as the command that follows
 * (so `source .venv/bin/activate`, `export …` and `cd` carry over), with its standard output
 * discarded and its errors kept. If one fails, the command does not run: the shell exits with that
 * status after a line naming the entry, so the model (and the user) see why rather than a command
 * failing in the wrong environment.
 */
export function withStartupCommands(command: string, startupCommands: readonly string[]): string {
  const setup = startupCommands
    .map((entry, index) => ({ entry: entry.trim(), index }))
    .filter(({ entry }) => entry !== "")
    .map(
      ({ entry, index }) =>
        // The newline before `}` ends a trailing comment in the entry.
        `{ ${entry}\n} >/dev/null || { __nyzhi_status=$?; echo "nyzhi: shell.startup_commands[${index}] failed (exit $__nyzhi_status); the command did not run" >&2; exit $__nyzhi_status; }`,
    );
  return setup.length === 0 ? command : `${setup.join("\n")}\n${command}`;
}
