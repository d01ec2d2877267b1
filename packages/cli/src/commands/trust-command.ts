import { resolve } from "node:path";
import {
  findProjectRoot,
  globalConfigPath,
  isProjectTrusted,
  projectTrustKey,
  readConfigFile,
  setProjectTrust,
} from "@nyzhi/config";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";

export interface TrustFlags {
  list?: boolean;
  remove?: boolean;
}

/**
 * `nyz trust [dir]`: trusts the project that holds `dir` (default: here), so its own settings
 * that widen power (trust mode, sandbox, hooks, MCP servers, `.mcp.json` …) apply. The trust is
 * recorded in the global config as `[projects."<root>"] trusted = true`. `--remove` takes it back;
 * `--list` prints every trusted project root.
 */
export async function trustCommand(
  io: CommandIo,
  directory: string | undefined,
  flags: TrustFlags,
): Promise<number> {
  const file = globalConfigPath(io.env);
  if (flags.list) return listTrusted(io, file);
  const root = projectTrustKey(findProjectRoot(resolve(io.cwd, directory ?? ".")));
  const change = await setProjectTrust(file, root, { trusted: !flags.remove });
  if (flags.remove) {
    io.stdout(change.changed ? `No longer trusted: ${root}\n` : `${root} was not trusted\n`);
  } else if (change.changed) {
    io.stdout(
      `Trusted ${root}: its .nyzhi/config.toml, .nyzhi/config.local.toml and .mcp.json now apply in full (recorded in ${file})\n`,
    );
  } else {
    io.stdout(`${root} is already trusted\n`);
  }
  if (!change.preservedComments) io.stderr(`note: ${file} was rewritten; its comments were lost\n`);
  return ExitCode.success;
}

async function listTrusted(io: CommandIo, file: string): Promise<number> {
  const global = await readConfigFile(file, "global");
  const projects = global?.data.projects;
  const roots =
    projects !== null && typeof projects === "object"
      ? Object.keys(projects).filter((root) => isProjectTrusted(global?.data, root))
      : [];
  if (roots.length === 0) io.stderr(`No trusted projects (${file})\n`);
  for (const root of roots.sort()) io.stdout(`${root}\n`);
  return ExitCode.success;
}
