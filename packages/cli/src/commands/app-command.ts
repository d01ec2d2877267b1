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
 * Where the bundle of the app (`dist/app.mjs`: @nyzhi/tui, ink, react) finds this process's
 * @nyzhi/core and @nyzhi/config (`app/host-modules.ts`), so the app shares the modules already
 * loaded instead of carrying a second copy (see tsup.config.ts).
 */
export const HOST_MODULES_KEY = Symbol.for("nyzhi.hostModules");
/**
 * Set by the bin (`dist/nyz.cjs`): a real `import()`. The commands run as one CommonJS bundle
 * through a `vm.Script`, which has no module loader for `import()`, and the app is an ES module
 * (yoga-layout uses top-level await).
 */
export const IMPORT_MODULE = Symbol.for("nyzhi.importModule");

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
 * `nyz [prompt]` on a terminal: the interactive app, loaded only now (`dist/app.mjs`), so other
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

/** Loads `dist/app.mjs` beside this bundle, handing it this process's core and config. */
async function loadApp(): Promise<Pick<AppModule, "runApp">> {
  const globals = globalThis as Record<symbol, unknown>;
  globals[HOST_MODULES_KEY] = HOST_MODULES;
  const url = new URL("./app.mjs", import.meta.url).href;
  const importModule = globals[IMPORT_MODULE] as ((specifier: string) => Promise<unknown>) | undefined;
  // Outside the bin (the ES module build, tests), `import()` works as it is.
  return (await (importModule ? importModule(url) : import(url))) as Pick<AppModule, "runApp">;
}
