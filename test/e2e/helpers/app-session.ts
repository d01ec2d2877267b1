import { execFileSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, RecordedRequest } from "@nyzhi/mock-llm";
import { afterEach } from "vitest";
import { tempHome } from "./run-nyz.js";
import { SHELL_PROMPT, TmuxTerminal } from "./tmux-terminal.js";

/** The input's placeholder: the app is drawn. */
export const APP_READY = "Ask anything";
/** A line of the lead's system prompt (subagents have their own). */
export const LEAD_SYSTEM = "You are Nizzy";

/**
 * Opens the built `nyz` in a fresh tmux terminal in `cwd` and waits until the session is open
 * (the footer names the model and the trust mode). The caller closes the terminal.
 */
export async function openApp(
  env: Record<string, string>,
  cwd: string,
  args: string[] = [],
  options: { onStart?: (terminal: TmuxTerminal) => void } = {},
): Promise<TmuxTerminal> {
  const term = await TmuxTerminal.start({
    cwd,
    env: appTerminalEnv(cwd, env),
  });
  options.onStart?.(term);
  await term.startNyz(args);
  await term.waitForText(APP_READY);
  await term.waitFor((screen) => /[\w.-]+ · trust \w+/.test(screen));
  return term;
}

/** The lead's model requests the mock received, oldest first. */
export const leadRequests = (server: MockLlm): RecordedRequest[] =>
  server.requests.filter((request) => request.system?.includes(LEAD_SYSTEM));

/** `/exit`, then waits for the shell's prompt. */
export async function quitApp(term: TmuxTerminal): Promise<void> {
  await term.typeLine("/exit");
  await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

/** The reasoning effort of an OpenAI request (Chat `reasoning_effort`, Responses `reasoning.effort`). */
export function reasoningEffort(body: unknown): string | undefined {
  const wire = body as { reasoning_effort?: string; reasoning?: { effort?: string } };
  return wire.reasoning_effort ?? wire.reasoning?.effort;
}

/** The environment of an app's terminal: the PATH, `cwd` as HOME, quiet logs, then `env`. */
export function appTerminalEnv(cwd: string, env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, NYZHI_LOG: "silent", ...env };
}

/**
 * After each test, closes the terminal and the mock it opened (read through `opened`), then
 * `forget`s them, so the next test starts with neither.
 */
export function closeAfterEach(
  opened: () => readonly [TmuxTerminal | undefined, MockLlm | undefined],
  forget: () => void,
): void {
  afterEach(async () => {
    const [terminal, mock] = opened();
    await terminal?.close();
    await mock?.close();
    forget();
  });
}

/** A test's project (a fresh git repository under the temp folder, named from `prefix`) and home. */
export async function freshProjectAndHome(prefix: string): Promise<{ workspace: string; home: string }> {
  const workspace = await mkdtemp(join(tmpdir(), prefix));
  execFileSync("git", ["init", "-q"], { cwd: workspace });
  return { workspace, home: await tempHome() };
}
