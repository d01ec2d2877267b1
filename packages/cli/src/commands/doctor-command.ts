import { formatDoctorReport, runDoctor } from "@nyzhi/core";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { flagLayer } from "./load-cli-config.js";

/**
 * `nyz doctor`: Node, sandbox, ripgrep, git, tmux, keychain, credentials (their source, never the
 * secret), proxy, this project's trust, the code index and the config files, each problem with
 * its fix. Exits 1 when something nyzhi needs is missing (✗), 0 otherwise. `--json` prints the
 * checks as JSON.
 */
export async function doctorCommand(
  io: CommandIo,
  flags: GlobalFlags,
  options: { json?: boolean },
): Promise<number> {
  const report = await runDoctor({
    cwd: io.cwd,
    env: io.env,
    load: { ...flagLayer(flags), trustProject: flags.trustProject === true },
  });
  if (options.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(formatDoctorReport(report));
  return report.failed ? ExitCode.failure : ExitCode.success;
}
