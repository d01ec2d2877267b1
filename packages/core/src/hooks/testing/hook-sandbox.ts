import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HookRunner, type HookRunnerOptions } from "../hook-runner.js";
import type { HookConfig, HookEvent, HookResult } from "../hook-types.js";

export interface LoggedLine {
  level: "warn" | "debug";
  details: object;
  message: string;
}

export interface HookSandbox {
  /** Temp workspace (real path); hooks run here. */
  dir: string;
  logged: LoggedLine[];
  /** Results passed to `onResult`, in order. */
  reported: HookResult[];
  runner(hooks: HookConfig[], options?: Partial<HookRunnerOptions>): HookRunner;
  /** Parses a JSON file a hook wrote into the workspace. */
  readJson(name: string): Promise<unknown>;
  readText(name: string): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * A temp workspace for hook tests: hooks get a minimal environment (PATH, and HOME inside the
 * workspace) and log into `logged`, so nothing touches the real home or the shared logger.
 */
export async function createHookSandbox(): Promise<HookSandbox> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-hooks-")));
  const logged: LoggedLine[] = [];
  const reported: HookResult[] = [];
  return {
    dir,
    logged,
    reported,
    runner: (hooks, options = {}) =>
      new HookRunner({
        hooks,
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir, NYZHI_TEST_MARKER: "from-env" },
        sessionId: "session-1",
        logger: {
          warn: (details, message) => logged.push({ level: "warn", details, message }),
          debug: (details, message) => logged.push({ level: "debug", details, message }),
        },
        onResult: (result) => reported.push(result),
        ...options,
      }),
    readJson: async (name) => JSON.parse(await readFile(join(dir, name), "utf8")) as unknown,
    readText: (name) => readFile(join(dir, name), "utf8"),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A hook entry with the config defaults (command hook, no block, 30 s). */
export function hookConfig(event: HookEvent, fields: Partial<HookConfig> = {}): HookConfig {
  return { event, command: "", hook_type: "command", block: false, timeout: 30, ...fields };
}

/** A command that saves its stdin to `<name>.json` and its NYZHI_* env to `<name>.env`. */
export function recordCommand(name: string): string {
  return `cat > "$NYZHI_PROJECT_DIR/${name}.json"; printf '%s|%s|%s' "$NYZHI_HOOK_EVENT" "$NYZHI_PROJECT_DIR" "$NYZHI_TEST_MARKER" > "$NYZHI_PROJECT_DIR/${name}.env"`;
}
