import type { MockLlm, RecordedRequest } from "@nyzhi/mock-llm";
import { SHELL_PROMPT, TmuxTerminal } from "./tmux-terminal.js";

/** The input's placeholder: the app is drawn and takes keys. */
export const APP_READY = "Ask anything";
/** The lead's system prompt starts with this (subagents' do not). */
export const LEAD_SYSTEM = "You are Nizzy";

/**
 * Starts the built `nyz` app in a tmux pane in `cwd` and waits until its session is open (the
 * footer names the model and trust mode). `env` is the whole environment besides PATH and HOME.
 */
export async function openApp(
  env: Record<string, string>,
  cwd: string,
  args: readonly string[] = [],
): Promise<TmuxTerminal> {
  const terminal = await TmuxTerminal.start({
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, NYZHI_LOG: "silent", ...env },
  });
  await terminal.startNyz(args);
  await terminal.waitForText(APP_READY);
  await terminal.waitFor((screen) => /[\w.-]+ · trust \w+/.test(screen));
  return terminal;
}

/** `/exit`, then waits for the shell's prompt (the session is saved by then). */
export async function quitApp(terminal: TmuxTerminal): Promise<void> {
  await terminal.typeLine("/exit");
  await terminal.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

/** The requests of the lead (not of subagents or compaction). */
export function leadRequests(mock: MockLlm): RecordedRequest[] {
  return mock.requests.filter((request) => request.system?.includes(LEAD_SYSTEM));
}

/** Waits until the mock has answered `count` requests of the lead. */
export async function waitForLeadRequests(
  mock: MockLlm,
  count: number,
  timeoutMs = 20_000,
): Promise<RecordedRequest[]> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const requests = leadRequests(mock);
    if (
      requests.length >= count &&
      requests.slice(0, count).every((request) => request.endedAt !== undefined)
    )
      return requests;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${count} lead request(s); saw ${leadRequests(mock).length}`);
}
