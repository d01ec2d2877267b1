import { z } from "zod";
import type { BwrapStatus } from "../../engines/sandbox/detect-bwrap.js";
import { defineShippedTool, type Tool } from "../seam/define-tool.js";
import { projectRootOf, type ToolContext, type ToolResult } from "../seam/tool-types.js";
import { detectChecks, type VerifyCheck } from "./detect-checks.js";
import { notFoundInSandboxHint } from "./find-shell.js";
import { prepareCommandSandbox } from "./prepare-command-sandbox.js";
import { runShellCommand } from "./run-shell-command.js";

/** Per check, in seconds. */
export const VERIFY_CHECK_TIMEOUT_SECONDS = 600;
/** Code points of a failing check's output shown to the model (its end). */
const FAILURE_TAIL_CHARS = 500;

/** The record of one check that ran (core §5.6 `Evidence`). */
export interface VerifyEvidence {
  kind: string;
  command: string;
  exitCode: number | null;
  passed: boolean;
  timedOut: boolean;
  /** Unix ms when the check finished. */
  finishedAt: number;
  elapsedMs: number;
}

export interface VerifyToolOptions {
  /** `[agent.verify].checks`; empty or absent means detect from the project. */
  checks?: readonly VerifyCheck[];
  detectSandbox?: () => Promise<BwrapStatus>;
}

const inputSchema = z.lazy(() =>
  z.object({
    checks: z
      .array(z.object({ kind: z.string().min(1), command: z.string().min(1) }))
      .optional()
      .describe("Checks to run instead of the configured or detected ones."),
  }),
);

/**
 * The `verify` tool: runs the given, configured or detected checks one after another, in the
 * same sandbox as `bash`. It runs arbitrary commands, so it is an `execute` tool that mutates
 * (the original treated it as read-only, so it skipped every permission check).
 */
export function createVerifyTool(options: VerifyToolOptions = {}): Tool {
  return defineShippedTool({
    name: "verify",
    description:
      "Run the project's checks (build, test, lint) in order and report PASS/FAIL for each. Uses the configured checks, else detects them from Cargo.toml, package.json, go.mod or pyproject.toml.",
    inputSchema,
    kind: "execute",
    mutates: true,
    preview: (input) =>
      (input.checks ?? options.checks ?? []).map((check) => check.command).join("\n") || "(detected checks)",
    async execute(input, context): Promise<ToolResult | string> {
      const configured =
        input.checks ?? (options.checks && options.checks.length > 0 ? options.checks : undefined);
      const { checks, directory } = configured
        ? { checks: configured, directory: context.cwd }
        : await detectChecksNear(context);
      if (checks.length === 0) {
        return "No checks configured or detected (looked for Cargo.toml, package.json scripts, go.mod, pyproject.toml, setup.py). Pass `checks` explicitly.";
      }
      const lines: string[] = [];
      const evidence: VerifyEvidence[] = [];
      for (const check of checks) {
        if (context.signal.aborted) break;
        const { sandbox, notice, env, script } = await prepareCommandSandbox(
          context,
          check.command,
          options.detectSandbox,
        );
        if (notice) lines.push(`Note: ${notice}.`);
        context.progress({ type: "output", text: `$ ${check.command}\n` });
        const result = await runShellCommand({
          command: script,
          cwd: directory,
          timeoutMs: VERIFY_CHECK_TIMEOUT_SECONDS * 1000,
          signal: context.signal,
          onOutput: (text) => context.progress({ type: "output", text }),
          maxOutputChars: FAILURE_TAIL_CHARS * 4,
          sandbox,
          env,
        });
        const passed = result.exitCode === 0 && !result.timedOut && !result.aborted;
        evidence.push({
          kind: check.kind,
          command: check.command,
          exitCode: result.exitCode,
          passed,
          timedOut: result.timedOut,
          finishedAt: Date.now(),
          elapsedMs: result.durationMs,
        });
        const seconds = (result.durationMs / 1000).toFixed(1);
        lines.push(`[${passed ? "PASS" : "FAIL"}] ${check.kind} (${check.command}) - ${seconds}s`);
        const notFound =
          result.sandboxed && result.exitCode === 127 && sandbox
            ? notFoundInSandboxHint({ pathVariable: env.PATH, roots: sandbox.roots })
            : undefined;
        if (!passed)
          lines.push(indent(failureTail(result.output, result.timedOut, result.exitCode, notFound)));
      }
      const failed = evidence.filter((entry) => !entry.passed).length;
      const skipped = checks.length - evidence.length;
      lines.push(
        failed === 0 && skipped === 0
          ? `All ${checks.length} checks passed.`
          : `${failed} of ${checks.length} checks failed${skipped > 0 ? `, ${skipped} not run (cancelled)` : ""}.`,
      );
      return { output: lines.join("\n"), metadata: { allPassed: failed === 0 && skipped === 0, evidence } };
    },
  });
}

export const verifyTool: Tool = createVerifyTool();

/**
 * The detected checks and where they run: the working directory's, else (started in a folder
 * without a manifest) the project root's.
 */
async function detectChecksNear(context: ToolContext): Promise<{ checks: VerifyCheck[]; directory: string }> {
  const here = await detectChecks(context.cwd);
  const root = projectRootOf(context);
  if (here.length > 0 || root === context.cwd) return { checks: here, directory: context.cwd };
  return { checks: await detectChecks(root), directory: root };
}

function failureTail(
  output: string,
  timedOut: boolean,
  exitCode: number | null,
  notFoundHint: string | undefined,
): string {
  const points = Array.from(output.trimEnd());
  const tail =
    points.length > FAILURE_TAIL_CHARS ? `…${points.slice(-FAILURE_TAIL_CHARS).join("")}` : points.join("");
  const status = timedOut
    ? `timed out after ${VERIFY_CHECK_TIMEOUT_SECONDS}s`
    : `exit code ${exitCode ?? "none"}${notFoundHint ? `: ${notFoundHint}` : ""}`;
  return `${tail === "" ? "(no output)" : tail}\n(${status})`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
