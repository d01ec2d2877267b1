import {
  type Environment,
  getLogger,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  resolveDirs,
} from "@nyzhi/config";
import {
  type IndexProcessCommand,
  type OpenedSession,
  type OpenSessionOptions,
  openSession,
  type SandboxLevel,
  type SessionResume,
} from "@nyzhi/core";
import { type Instance, render } from "ink";
import { createDiffingLogUpdate } from "../frame/diffing-log-update.js";
import { InputHistory, projectHistoryPath } from "../input/input-history.js";
import { keepScrollbackStream } from "../terminal/keep-scrollback-stream.js";
import { resolveTheme, type ThemeColourOverrides } from "../theme/theme.js";
import { App } from "./app.js";
import { startupNotice } from "./commands/setup-commands.js";
import { exitSummary } from "./exit-summary.js";
import { guardProcess } from "./guard-process.js";
import { projectFiles } from "./project-files.js";
import { SessionBridge } from "./session-bridge.js";
import { settleWithin } from "./use-session.js";

/** How long a crash waits for the session to save before exiting anyway, ms. */
const CRASH_SAVE_MS = 3000;

export interface RunAppOptions {
  cwd: string;
  env: Environment;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** Sent as the first turn (`nyz "prompt"`). */
  prompt?: string | undefined;
  /** Continue a saved session (`nyz -c`, `nyz -s <query>`); its transcript is shown. */
  resume?: SessionResume | undefined;
  /** `--model`. */
  model?: string | undefined;
  sandbox?: SandboxLevel | undefined;
  /** The loaded config (with the command line's flag layer); default: loaded here. */
  config?: LoadedConfig | undefined;
  configOptions?: Omit<LoadConfigOptions, "cwd" | "env">;
  /**
   * The session's code index runs in a child process started with this command (`nyz
   * __index-process`), so LanceDB and the chunker stay out of the app's memory and event loop.
   */
  indexProcess?: IndexProcessCommand | undefined;
  /** nyzhi's version, for the header. */
  version?: string | undefined;
  /** Replaces core's `openSession` (tests). */
  openSession?: (options: OpenSessionOptions) => Promise<OpenedSession>;
}

/**
 * Runs the interactive app until the user quits; resolves with the exit code (0 after `/exit` or
 * Ctrl+C twice, 128+n after SIGTERM/SIGHUP/SIGINT, 1 after a crash). Renders inline (no alternate
 * screen) so finished output stays in the terminal's scrollback; the session is closed (saved) on
 * every way out, and the terminal is restored (raw mode off, cursor shown) even after a crash.
 */
export async function runApp(options: RunAppOptions): Promise<number> {
  const { env } = options;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const loaded = options.config ?? (await loadConfig({ ...options.configOptions, cwd: options.cwd, env }));
  // A config the host loaded had its warnings shown by the host; the untrusted folder's is shown
  // again in the app, saying how to trust it from there.
  const notices = loaded.warnings
    .filter((warning) => !options.config || warning.kind === "untrusted-project")
    .map(startupNotice);
  const { config, projectRoot } = loaded;
  const theme = resolveTheme({
    theme: config.tui.theme,
    accent: config.tui.accent,
    colors: Object.fromEntries(
      Object.entries(config.tui.colors).filter(([, colour]) => colour !== undefined),
    ) as ThemeColourOverrides,
    env,
  });
  const history = await InputHistory.load(projectHistoryPath(resolveDirs(env).data, projectRoot)).catch(
    (error: unknown) => {
      getLogger(env).warn({ error }, "input history not loaded");
      return undefined;
    },
  );
  const bridge = new SessionBridge({ cwd: projectRoot });
  const opener = options.openSession ?? openSession;
  let current: OpenedSession | undefined;
  const open = async (resume?: SessionResume, reopening?: OpenedSession) => {
    if (reopening) {
      current = await reopening.reopen();
      return current;
    }
    current = await opener({
      cwd: options.cwd,
      env,
      config: loaded,
      model: options.model,
      sandbox: options.sandbox,
      resume,
      indexProcess: options.indexProcess,
      host: bridge.host(),
    });
    return current;
  };

  return new Promise<number>((resolve) => {
    let finished = false;
    let instance: Instance | undefined;
    const quitRef: { current: ((code: number) => Promise<void>) | undefined } = { current: undefined };
    // ink draws through this: nothing it writes erases the scrollback.
    const screen = keepScrollbackStream(stdout);
    const finish = (code: number) => {
      if (finished) return;
      finished = true;

      try {
        instance?.unmount();
      } catch {
        // The terminal went away while the last frame was drawn.
      }
      guard.restoreTerminal();
      guard.release();
      // The way back: below the last frame, once the terminal is the shell's again.
      if (!guard.hungUp) {
        const summary = exitSummary(current);
        if (summary) stdout.write(summary);
      }
      resolve(code);
      // Nothing is left to show on a terminal that is gone: end now, by the hangup itself. (Node's
      // exit would restore the terminal's modes, which fails on a closed terminal and aborts.)
      if (guard.hungUp) {
        setImmediate(() => {
          process.removeAllListeners("SIGHUP");
          process.kill(process.pid, "SIGHUP");
        });
      }
    };
    const closeWithin = (ms: number) => settleWithin(current?.close(), ms);
    // Signals quit the way /exit does (the running turn is interrupted, the session saved).
    const quit = (code: number) => {
      if (quitRef.current) void quitRef.current(code);
      else void closeWithin(CRASH_SAVE_MS).finally(() => finish(code));
    };
    const crash = () => void closeWithin(CRASH_SAVE_MS).finally(() => finish(1));
    const guard = guardProcess({
      stdin,
      stdout,
      stderr,
      onSignal: quit,
      onHangup: quit,
      onCrash: crash,
    });
    instance = render(
      <App
        bridge={bridge}
        open={open}
        resume={options.resume}
        initialPrompt={options.prompt}
        theme={theme}
        env={env}
        version={options.version ?? "0.0.0-dev"}
        history={history}
        files={projectFiles(projectRoot)}
        notices={notices}
        trustMode={config.agent.trust.mode}
        onExit={finish}
        quitRef={quitRef}
      />,
      // Frames are written as the cells that changed, the cursor resting on the live region's first
      // row between them, so a resize redraws only the live region (frame/diffing-log-update.ts).
      { stdin, stdout: screen, stderr, exitOnCtrlC: false, logUpdate: createDiffingLogUpdate },
    );
    // A component that throws ends ink's render: the same as a crash.
    instance.waitUntilExit().catch((error: unknown) => {
      guard.restoreTerminal();
      if (!guard.hungUp)
        stderr.write(`nyz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      crash();
    });
  });
}
