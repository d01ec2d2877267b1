/**
 * Start-up marks for measuring where a run's time goes (`NYZHI_TRACE_START=1`): the `nyz` bin puts
 * an array on `globalThis` under this symbol when the variable is set and prints it to stderr at
 * exit, each mark as milliseconds since the process started. Without the variable a mark is one
 * lookup that finds nothing. See docs/performance.md.
 */
export const STARTUP_MARKS = Symbol.for("nyzhi.startupMarks");

export function markStartup(name: string): void {
  const marks = (globalThis as Record<symbol, unknown>)[STARTUP_MARKS] as string[] | undefined;
  marks?.push(`${(process.uptime() * 1000).toFixed(1)} ${name}`);
}
