import { relative } from "node:path";
import { findProjectRoot, scaffoldProject } from "@nyzhi/config";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";

/** `nyz init`: scaffolds `.nyzhi/` in the project root; never overwrites a file. */
export async function initProject(io: CommandIo): Promise<number> {
  const root = findProjectRoot(io.cwd);
  const result = await scaffoldProject(root);
  if (result.created.length === 0) {
    io.stdout(`.nyzhi/ already exists in ${root}; nothing was changed.\n`);
    return ExitCode.success;
  }
  io.stdout(`Initialized .nyzhi/ in ${root}\n`);
  for (const path of result.created) io.stdout(`  created ${relative(root, path) || path}\n`);
  for (const path of result.skipped)
    io.stdout(`  kept    ${relative(root, path) || path} (already exists)\n`);
  if (result.ignoreFile) {
    io.stdout(
      `  ignored ${result.gitignoreAdded.join(", ")} (in ${relative(root, result.ignoreFile) || result.ignoreFile})\n`,
    );
  }
  return ExitCode.success;
}
