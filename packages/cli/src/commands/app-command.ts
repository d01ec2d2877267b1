import { fileURLToPath } from "node:url";
import { markStartup } from "@nyzhi/config";
import { Command, Option } from "commander";
import { HOST_MODULES } from "../app/host-modules.js";
import { parseSandboxFlag, parseTrustFlag, UsageError } from "../headless/headless-options.js";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";
import { redactingStream } from "../io/redacting-stream.js";
import { NYZHI_VERSION } from "../version.js";
import { indexProcessCommand } from "./index-process-command-line.js";
import { loadCliConfig } from "./load-cli-config.js";

/** What `nyz` without a command says when stdin or stdout is not a terminal. */
export const NO_TERMINAL_HINT =
  'nyz: the interactive app needs a terminal; use `nyz exec "…"` for scripts (nyz --help for all commands)\n';

/**
 * Where the bundle of the app (`dist/app.cjs`: @nyzhi/tui, ink, react) finds this process's
 * @nyzhi/core and @nyzhi/config (`app/host-modules.ts`), so the app shares the modules already
 * loaded instead of carrying a second copy (see tsup.config.ts).
 */
export const HOST_MODULES_KEY = Symbol.for("nyzhi.hostModules");
/**
 * Set by the bin (`dist/nyz.cjs`): loads a CommonJS bundle through V8's code cache and returns its
 * exports. The app (`dist/app.cjs`) is one, as the commands are (decision 019).
 */
export const LOAD_BUNDLE = Symbol.for("nyzhi.loadBundle");

interface AppFlags {
  provider?: string;
  model?: string;
  trust?: string;
  trustProject?: boolean;
  continue?: boolean;
  session?: string;
  sandbox?: string;
}

function appProgram(io: CommandIo): Command {
  return new Command("nyz")
    .argument("[prompt...]")
    .addOption(new Option("-p, --provider <id>"))
    .addOption(new Option("-m, --model <id>"))
    .addOption(new Option("-y, --trust <mode>"))
    .addOption(new Option("--trust-project"))
    .addOption(new Option("-c, --continue"))
    .addOption(new Option("-s, --session <query>"))
    .addOption(new Option("--sandbox <level>"))
    .helpOption(false)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
}

/**
 * `nyz [prompt]` on a terminal: the interactive app, loaded only now (`dist/app.cjs`), so other
 * commands never load React or ink. Not on a terminal: a one-line hint and exit 2, except a lone
 * word, which is left to the command parser (`nyz frobnicate`: unknown command).
 */
export async function appCommand(
  io: CommandIo,
  args: readonly string[],
  options: { terminal: boolean },
): Promise<number | "not-app"> {
  const program = appProgram(io);
  program.parse([...args], { from: "user" });
  const flags = program.opts<AppFlags>();
  const words = program.args;
  if (!options.terminal) {
    const loneWord = words.length === 1 && /^[a-z][\w-]*$/.test(words[0]!) && args.length === 1;
    if (loneWord) return "not-app";
    io.stderr(NO_TERMINAL_HINT);
    return ExitCode.usage;
  }
  if (flags.continue && flags.session) throw new UsageError("Cannot use both --continue and --session");
  const trust = parseTrustFlag(flags.trust);
  const sandbox = parseSandboxFlag(flags.sandbox);
  const loaded = await loadCliConfig(
    io,
    {
      ...(flags.provider ? { provider: flags.provider } : {}),
      ...(trust ? { trust } : {}),
      ...(flags.trustProject ? { trustProject: true } : {}),
    },
    { shownElsewhere: ["untrusted-project"] },
  );
  markStartup("app config loaded");
  const prompt = words.join(" ").trim();
  const app = await loadApp();
  markStartup("app module loaded");
  return app.runApp({
    cwd: io.cwd,
    env: io.env,
    version: NYZHI_VERSION,
    // Known credentials never reach the screen, as in every headless output.
    stdout: redactingStream(process.stdout),
    stderr: redactingStream(process.stderr),
    config: loaded,
    model: flags.model,
    sandbox,
    indexProcess: indexProcessCommand({ background: true }),
    ...(prompt ? { prompt } : {}),
    ...(flags.continue
      ? { resume: { latest: true } }
      : flags.session
        ? { resume: { query: flags.session } }
        : {}),
  });
}

type AppModule = typeof import("@nyzhi/tui");

/** Loads `dist/app.cjs` beside this bundle, handing it this process's core and config. */
async function loadApp(): Promise<Pick<AppModule, "runApp">> {
  const globals = globalThis as Record<symbol, unknown>;
  globals[HOST_MODULES_KEY] = HOST_MODULES;
  const url = new URL("./app.cjs", import.meta.url);
  const loadBundle = globals[LOAD_BUNDLE] as ((path: string) => unknown) | undefined;
  // Outside the bin (the ES module build, tests), `import()` loads it as it is.
  return (loadBundle ? loadBundle(fileURLToPath(url)) : await import(url.href)) as Pick<AppModule, "runApp">;
}
