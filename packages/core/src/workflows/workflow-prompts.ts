import type { VerifyCheck } from "../tools/shell/detect-checks.js";

/**
 * The prompt workflows of the app's commands (and `nyz exec`): what `/quick`, `/refactor`,
 * `/init-deep`, `/team <N>` and `/verify` send to the lead. Kept here so every host sends the same
 * words.
 */

/** `/quick <task>`: a small task done at once, verified, one atomic commit per logical change. */
export function quickTaskPrompt(task: string): string {
  return [
    `Quick task: ${task}`,
    "",
    "Work on it directly, without a long plan:",
    "1. Read only the files the task touches.",
    "2. Make the smallest change that does it, following the project's conventions.",
    "3. Run the checks that cover it (the verify tool, or the project's test command).",
    "4. If this is a git repository, commit each logical change on its own (git_commit) with a short message saying why.",
    "5. End with what changed (files), how it was checked, and anything left undone.",
  ].join("\n");
}

/** `/refactor <target>`: the original's seven-step refactor workflow. */
export function refactorPrompt(target: string): string {
  return [
    `Refactor: ${target}`,
    "",
    "Follow these steps in order and say which step you are on:",
    "1. Understand: read the target and everything that calls it; state what it does today.",
    "2. Safety net: find the tests that cover it; if there are none, write characterisation tests first and run them green.",
    "3. Plan: list the smaller changes (rename, extract, move, simplify) that get to the better shape, each keeping behaviour.",
    "4. Change: make one step at a time, keeping every caller working.",
    "5. Verify: run the tests (and build, lint) after each step; stop and fix when one fails.",
    "6. Clean up: remove what became dead, update comments and docs that name the old shape.",
    "7. Report: what changed, why it is better, how it was verified, and what you left alone.",
    "Behaviour must not change: no new features, no fixes mixed in (note bugs you see instead).",
  ].join("\n");
}

/** `/init-deep`: the model writes an AGENTS.md per meaningful folder, top-down. */
export function initDeepPrompt(): string {
  return [
    "Write hierarchical AGENTS.md files for this project.",
    "",
    "1. Explore the tree (ls, glob, read the manifests and the main entry points); skip generated, vendored and dependency folders.",
    "2. Write or update AGENTS.md at the root: what the project is, how to build, test and lint it, the layout, the conventions a newcomer must follow.",
    "3. For each folder that is a unit of its own (a package, a service, a layer with its own rules), write an AGENTS.md there: its purpose, its key files, what it may depend on, its own commands and pitfalls. Do not repeat what the parent's file says.",
    "4. Keep each file short and factual (under about 60 lines); only write what you verified in the code.",
    "5. End with the list of files written.",
  ].join("\n");
}

/** `/team <N> <task>`: the lead splits the task over N subagents working in parallel. */
export function teamTaskPrompt(count: number, task: string): string {
  return [
    `Split this task over ${count} subagents working in parallel, then combine their work: ${task}`,
    "",
    `1. Break it into ${count} parts that can proceed independently (say which files each may change, so no two write the same file).`,
    `2. Start the ${count} subagents in one step (${count} spawn_agent calls at once), each with its part, the files it owns and what "done" means.`,
    "3. Wait for all of them, review what each did, resolve conflicts and run the checks.",
    "4. Report per part: who did it, what changed, and whether the checks pass.",
  ].join("\n");
}

/** `/verify`: runs the project's checks through the verify tool and reports them. */
export function verifyPrompt(checks: readonly VerifyCheck[]): string {
  const listed =
    checks.length > 0
      ? checks.map((check) => `- ${check.kind}: \`${check.command}\``).join("\n")
      : "- none detected (look for the project's build, test and lint commands yourself)";
  return [
    "Verify the project: run its checks with the verify tool and report.",
    "",
    "Checks:",
    listed,
    "",
    "Report each check as PASS or FAIL with its command; for a failure, quote the relevant output and name the likely cause. Change nothing.",
  ].join("\n");
}
