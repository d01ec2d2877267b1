import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import type { PathUse, ToolContext } from "../seam/tool-types.js";
import { GIT_MAX_OUTPUT_CHARS, isSafeGitArgument, runGit, runGitOrThrow } from "./run-git.js";

/** Mutating git tools write the working tree and `.git`: the sandbox must allow writing the workspace. */
const WORKSPACE_WRITE: PathUse = { path: ".", access: "write" };

async function checkWorkspaceWritable(context: ToolContext): Promise<void> {
  await context.paths.resolve(".", "write");
}

export const gitCommitTool = defineShippedTool({
  name: "git_commit",
  description:
    "Commit changes. With `paths`, stages and commits only those; without, stages everything (`git add -A`) and commits. Returns the short hash.",
  inputSchema: z.lazy(() =>
    z.object({
      message: z.string().trim().min(1).describe("The commit message."),
      paths: z
        .array(z.string().min(1))
        .optional()
        .describe("Files or directories to commit; default all changes."),
    }),
  ),
  kind: "execute",
  mutates: true,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  paths: (input) => [
    WORKSPACE_WRITE,
    ...(input.paths ?? []).map((path): PathUse => ({ path, access: "read" })),
  ],
  preview: (input) => `git commit ${input.paths ? `-- ${input.paths.join(" ")}` : "-A"}\n${input.message}`,
  async execute(input, context) {
    await checkWorkspaceWritable(context);
    const pathspec = input.paths && input.paths.length > 0 ? ["--", ...input.paths] : [];
    await runGitOrThrow(context, pathspec.length > 0 ? ["add", ...pathspec] : ["add", "-A"]);
    const commit = await runGit(context, ["commit", "--no-edit", "-m", input.message, ...pathspec]);
    if (commit.exitCode !== 0) {
      const text = `${commit.stdout}\n${commit.stderr}`;
      if (/nothing (added )?to commit|no changes added to commit/.test(text)) {
        throw new ToolError("Nothing to commit: the working tree has no changes (for the given paths).");
      }
      throw new ToolError(`git commit failed: ${(commit.stderr || commit.stdout).trim()}`);
    }
    const hash = (await runGitOrThrow(context, ["rev-parse", "--short", "HEAD"])).trim();
    const stat = commit.stdout
      .split("\n")
      .filter((line) => /files? changed/.test(line))
      .map((line) => line.trim());
    return {
      output: [`Committed ${hash}: ${input.message.split("\n")[0]}`, ...stat].join("\n"),
      metadata: { hash },
    };
  },
});

export const gitCheckoutTool = defineShippedTool({
  name: "git_checkout",
  description: "Switch to a branch, or create it from the current HEAD and switch to it (`create: true`).",
  inputSchema: z.lazy(() =>
    z.object({
      branch: z
        .string()
        .refine(isSafeGitArgument, { message: 'branch must not be empty or start with "-"' })
        .describe("Branch name."),
      create: z.boolean().optional().describe("Create the branch first (default false)."),
    }),
  ),
  kind: "execute",
  mutates: true,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  paths: () => [WORKSPACE_WRITE],
  preview: (input) => `git switch ${input.create ? "-c " : ""}${input.branch}`,
  async execute(input, context) {
    await checkWorkspaceWritable(context);
    const args = input.create ? ["switch", "-c", input.branch] : ["switch", "--end-of-options", input.branch];
    await runGitOrThrow(context, args);
    return input.create ? `Switched to a new branch ${input.branch}` : `Switched to branch ${input.branch}`;
  },
});
