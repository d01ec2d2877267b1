import { z } from "zod";
import { defineShippedTool } from "../seam/define-tool.js";
import type { PathUse } from "../seam/tool-types.js";
import { GIT_MAX_OUTPUT_CHARS, isSafeGitArgument, runGit, runGitOrThrow } from "./run-git.js";

const safeArgument = (what: string) =>
  z.string().refine(isSafeGitArgument, { message: `${what} must not be empty or start with "-"` });

const pathUse = (path: string | undefined): PathUse[] => (path ? [{ path, access: "read" }] : []);

export const gitStatusTool = defineShippedTool({
  name: "git_status",
  description:
    "Show the current branch (with upstream, ahead/behind) and the short status of the working tree.",
  inputSchema: z.lazy(() => z.object({})),
  kind: "read",
  mutates: false,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  async execute(_input, context) {
    const porcelain = await runGitOrThrow(context, [
      "status",
      "--porcelain=v2",
      "--branch",
      "--untracked-files=all",
    ]);
    const headers = new Map<string, string>();
    for (const line of porcelain.split("\n")) {
      const match = /^# (branch\.\w+) (.*)$/.exec(line);
      if (match) headers.set(match[1]!, match[2]!);
    }
    const head = headers.get("branch.head") ?? "(unknown)";
    let summary =
      head === "(detached)"
        ? `HEAD detached at ${headers.get("branch.oid")?.slice(0, 7)}`
        : `On branch ${head}`;
    if (headers.get("branch.oid") === "(initial)") summary += " (no commits yet)";
    const upstream = headers.get("branch.upstream");
    if (upstream) {
      const [ahead, behind] = (headers.get("branch.ab") ?? "+0 -0").split(" ").map((part) => part.slice(1));
      summary += `, tracking ${upstream} (ahead ${ahead}, behind ${behind})`;
    }
    const short = (await runGitOrThrow(context, ["status", "--short", "--untracked-files=all"])).trimEnd();
    return `${summary}\n${short === "" ? "Working tree clean" : short}`;
  },
});

export const gitDiffTool = defineShippedTool({
  name: "git_diff",
  description:
    "Show uncommitted changes (stat and patch). `staged` shows what is staged for the next commit.",
  inputSchema: z.lazy(() =>
    z.object({
      staged: z.boolean().optional().describe("Show staged changes instead of unstaged ones."),
      path: z.string().optional().describe("Limit the diff to this file or directory."),
    }),
  ),
  kind: "read",
  mutates: false,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  paths: (input) => pathUse(input.path),
  async execute(input, context) {
    const args = ["diff", "--stat", "--patch"];
    if (input.staged) args.push("--cached");
    if (input.path) args.push("--", input.path);
    const output = (await runGitOrThrow(context, args)).trimEnd();
    return output === "" ? (input.staged ? "No staged changes" : "No unstaged changes") : output;
  },
});

export const gitLogTool = defineShippedTool({
  name: "git_log",
  description: "Show recent commits as `hash date author | subject`, newest first.",
  inputSchema: z.lazy(() =>
    z.object({
      count: z
        .number()
        .int()
        .positive()
        .max(100)
        .optional()
        .describe("How many commits (default 20, max 100)."),
      path: z.string().optional().describe("Only commits touching this file or directory."),
      author: safeArgument("author")
        .optional()
        .describe("Only commits whose author matches (name or email)."),
    }),
  ),
  kind: "read",
  mutates: false,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  paths: (input) => pathUse(input.path),
  async execute(input, context) {
    const args = ["log", "-n", String(input.count ?? 20), "--date=short", "--format=%h %ad %an | %s"];
    if (input.author) args.push(`--author=${input.author}`);
    if (input.path) args.push("--", input.path);
    const result = await runGit(context, args);
    if (result.exitCode !== 0 && /does not have any commits yet/.test(result.stderr)) return "No commits yet";
    if (result.exitCode !== 0) return runGitOrThrow(context, args);
    return result.stdout.trimEnd() || "No matching commits";
  },
});

export const gitShowTool = defineShippedTool({
  name: "git_show",
  description: "Show one commit (or other object): message, stat and patch.",
  inputSchema: z.lazy(() =>
    z.object({ ref: safeArgument("ref").describe("Commit hash, branch, tag or e.g. HEAD~1.") }),
  ),
  kind: "read",
  mutates: false,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  async execute(input, context) {
    return (
      await runGitOrThrow(context, ["show", "--stat", "--patch", "--end-of-options", input.ref])
    ).trimEnd();
  },
});

export const gitBranchTool = defineShippedTool({
  name: "git_branch",
  description: "List branches; the current one is marked with `*`.",
  inputSchema: z.lazy(() =>
    z.object({
      all: z.boolean().optional().describe("Include remote-tracking branches (default true)."),
    }),
  ),
  kind: "read",
  mutates: false,
  maxOutputChars: GIT_MAX_OUTPUT_CHARS,
  async execute(input, context) {
    const args = ["branch", "--no-color"];
    if (input.all ?? true) args.push("--all");
    const output = (await runGitOrThrow(context, args)).trimEnd();
    return output === "" ? "No branches yet (no commits)" : output;
  },
});
