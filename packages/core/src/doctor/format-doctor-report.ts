import type { DoctorReport, DoctorState } from "./doctor-types.js";

const MARKS: Record<DoctorState, string> = { ok: "✓", warning: "!", problem: "✗" };

/**
 * `nyz doctor`'s text: one line per check (✓ fine, ! works with less, ✗ must be fixed), its
 * details and fix indented under it, and a closing line saying whether anything required is
 * missing.
 */
export function formatDoctorReport(report: DoctorReport): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${MARKS[check.state]} ${check.summary}`);
    for (const detail of check.details ?? []) lines.push(`    ${detail}`);
    if (check.fix && check.state !== "ok") lines.push(`    fix: ${check.fix}`);
  }
  const problems = report.checks.filter((check) => check.state === "problem").length;
  const warnings = report.checks.filter((check) => check.state === "warning").length;
  lines.push(
    "",
    problems > 0
      ? `${problems} problem${problems === 1 ? "" : "s"} to fix (✗) before nyzhi can work${warnings > 0 ? `; ${warnings} optional item${warnings === 1 ? "" : "s"} (!)` : ""}.`
      : `Everything nyzhi needs is here${warnings > 0 ? `; ${warnings} optional item${warnings === 1 ? "" : "s"} (!) would give it more` : ""}.`,
  );
  return `${lines.join("\n")}\n`;
}
