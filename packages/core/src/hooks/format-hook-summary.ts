import type { HookStatus } from "./hook-types.js";

/** Output lines kept under the summary line. */
export const HOOK_SUMMARY_LINES = 10;

/**
 * `[hook] <cmd> (ok|exit N|timed out|killed)`, then the last HOOK_SUMMARY_LINES lines of the
 * output, preceded by `...(N lines trimmed)` when there were more.
 */
export function formatHookSummary(result: {
  label: string;
  status: HookStatus;
  exitCode: number | null;
  output: string;
}): string {
  const header = `[hook] ${result.label} (${describeStatus(result.status, result.exitCode)})`;
  const text = result.output.replace(/\s+$/, "");
  if (text === "") return header;
  const lines = text.split(/\r?\n/);
  const trimmed = lines.length - HOOK_SUMMARY_LINES;
  if (trimmed <= 0) return [header, ...lines].join("\n");
  return [header, `...(${trimmed} lines trimmed)`, ...lines.slice(trimmed)].join("\n");
}

function describeStatus(status: HookStatus, exitCode: number | null): string {
  switch (status) {
    case "ok":
      return "ok";
    case "failed":
      return `exit ${exitCode ?? "?"}`;
    case "timed_out":
      return "timed out";
    case "killed":
      return "killed";
  }
}
