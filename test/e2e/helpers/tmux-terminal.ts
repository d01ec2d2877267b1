import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { NYZ_BIN } from "./run-nyz.js";

const run = promisify(execFile);

/** Whether tmux is installed (the terminal tests are skipped without it). */
export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface TerminalOptions {
  cwd: string;
  /** The whole environment of the shell (nothing is inherited but PATH). */
  env: Record<string, string>;
  columns?: number;
  rows?: number;
}

/** The shell's prompt in the pane, so a test can see that nyz has exited. */
export const SHELL_PROMPT = "nyz-e2e$ ";

/**
 * A real terminal: a tmux pane (its own tmux server, so tests never touch anyone's sessions)
 * running a plain bash, where a test types commands and keys and reads the screen.
 */
export class TmuxTerminal {
  readonly socket = `nyz-e2e-${randomUUID().slice(0, 8)}`;
  readonly target = "app";

  static async start(options: TerminalOptions): Promise<TmuxTerminal> {
    const terminal = new TmuxTerminal();
    const env = { ...options.env, PS1: SHELL_PROMPT, TERM: "xterm-256color" };
    const assignments = Object.entries(env).map(([key, value]) => `${key}=${value}`);
    await terminal.tmux(
      "new-session",
      "-d",
      "-s",
      terminal.target,
      "-x",
      String(options.columns ?? 100),
      "-y",
      String(options.rows ?? 30),
      "-c",
      options.cwd,
      "env",
      "-i",
      ...assignments,
      "bash",
      "--norc",
      "--noprofile",
    );
    await terminal.waitFor((screen) => screen.includes(SHELL_PROMPT.trim()), 10_000);
    return terminal;
  }

  async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
    return stdout;
  }

  /**
   * Runs the built `nyz` in the pane with `args` (each quoted for bash), on a cleared screen and
   * scrollback, so what a test then waits for can only come from this run (`keepScreen`: below
   * what the pane shows).
   */
  async startNyz(args: readonly string[] = [], options: { keepScreen?: boolean } = {}): Promise<void> {
    if (!options.keepScreen) {
      await this.typeLine("clear");
      await this.waitFor((screen) => screen.trim() === SHELL_PROMPT.trim(), 10_000, "screen");
      await this.tmux("clear-history", "-t", this.target);
    }
    const quoted = [process.execPath, NYZ_BIN, ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`);
    await this.typeLine(quoted.join(" "));
  }

  /** Types `text` literally, then Enter as a separate key press. */
  async typeLine(text: string): Promise<void> {
    await this.type(text);
    await this.keys("Enter");
  }

  async type(text: string): Promise<void> {
    await this.tmux("send-keys", "-t", this.target, "-l", text);
  }

  /** tmux key names: Enter, Escape, C-c, C-k … */
  async keys(...names: string[]): Promise<void> {
    await this.tmux("send-keys", "-t", this.target, ...names);
  }

  /** The visible screen. */
  async screen(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-t", this.target);
  }

  /** The scrollback and the screen. */
  async history(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-S", "-", "-t", this.target);
  }

  /** Polls the screen (with scrollback) until `check` holds; fails with the last screen. */
  async waitFor(
    check: (screen: string) => boolean,
    timeoutMs = 20_000,
    source: "screen" | "history" = "history",
  ): Promise<string> {
    const started = Date.now();
    let last = "";
    while (Date.now() - started < timeoutMs) {
      last = source === "history" ? await this.history() : await this.screen();
      if (check(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for the terminal; last screen:\n${last}`);
  }

  async waitForText(text: string, timeoutMs?: number): Promise<string> {
    return this.waitFor((screen) => screen.includes(text), timeoutMs);
  }

  /**
   * Copies every byte the pane's program writes from now on to `file` (tmux `pipe-pane`): for
   * what the screen does not show, such as the bell (BEL).
   */
  async recordOutput(file: string): Promise<void> {
    await this.tmux("pipe-pane", "-o", "-t", this.target, `cat >> '${file.replace(/'/g, "'\\''")}'`);
  }

  /** Resizes the pane's window, as a person dragging the terminal's edge. */
  async resize(columns: number, rows: number): Promise<void> {
    await this.tmux("resize-window", "-t", this.target, "-x", String(columns), "-y", String(rows));
  }

  async close(): Promise<void> {
    await this.tmux("kill-server").catch(() => undefined);
  }
}
