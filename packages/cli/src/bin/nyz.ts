#!/usr/bin/env node
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { NYZHI_VERSION } from "../version.js";
import { loadBundleWithCodeCache } from "./code-cache.js";
import { exitWhenIdle } from "./exit-when-idle.js";

/**
 * The `nyz` bin, built as CommonJS (`dist/nyz.cjs`): Node starts a CommonJS entry without its ES
 * module loader, and this file imports nothing but built-ins. `--version` answers from a constant;
 * every other command runs from the CommonJS bundle of all commands (`dist/nyz-main.cjs`) through
 * V8's code cache (see code-cache.ts).
 */
type Main = (args: readonly string[]) => Promise<number>;

// A closed pipe (`nyz agents | head`) ends the run quietly with exit code 0: the reader has what it
// wanted.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  exitQuietly(0);
});

// Node prints an uncaught error with its line of source, which in the minified bundle is a line of
// up to ~80 KB; the stack says where it was.
process.on("uncaughtException", (error: unknown) => {
  process.stderr.write(`nyz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitQuietly(1);
});

/**
 * `process.exit` runs the bundle's exit listeners (pino flushing its log file). Should one throw,
 * the second call exits without running them again, instead of Node printing the error.
 */
function exitQuietly(code: number): never {
  try {
    process.exit(code);
  } catch {
    process.exit(code);
  }
}

const APP_CODE_CACHE_DELAY_MS = 1000;
/**
 * How the commands' bundle loads the interactive app's (`dist/app.cjs`, see app-command.ts): through
 * the code cache too, under its own variant. Its cache, when missing or stale, is written a second
 * after loading (the first frame drawn, most of what starting the app runs compiled), on a timer
 * that never holds the process open: not on the way out of the app.
 */
(globalThis as Record<symbol, unknown>)[Symbol.for("nyzhi.loadBundle")] = (bundle: string) => {
  const loaded = loadBundleWithCodeCache<unknown>(bundle, { version: NYZHI_VERSION, variant: "app" });
  mark(`app bundle loaded (code cache ${loaded.cache})`);
  if (loaded.cache === "missing" || loaded.cache === "rejected") {
    setTimeout(() => loaded.saveCodeCache(), APP_CODE_CACHE_DELAY_MS).unref();
  }
  return loaded.exports;
};

const args = process.argv.slice(2);
// `NYZHI_TRACE_START=1`: marks of where the run's time went, printed to stderr at exit; any other
// value is a file the marks are appended to (the app's stderr is its screen). See markStartup in
// @nyzhi/config; the symbol is spelled out here, as this file loads no package.
const traceTo = process.env.NYZHI_TRACE_START;
const startupMarks: string[] | undefined = traceTo ? [] : undefined;
const mark = (name: string) => startupMarks?.push(`${(process.uptime() * 1000).toFixed(1)} ${name}`);
if (startupMarks) {
  (globalThis as Record<symbol, unknown>)[Symbol.for("nyzhi.startupMarks")] = startupMarks;
  process.on("exit", () => {
    mark("exit");
    const text = `${startupMarks.join("\n")}\n`;
    if (traceTo === "1") process.stderr.write(text);
    else appendFileSync(traceTo as string, text);
  });
  mark("bin");
}
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${NYZHI_VERSION}\n`);
} else {
  // The app's code index child (`__index-process`) runs a bundle of the index alone.
  const indexProcess = args[0] === "__index-process";
  const bundle = join(__dirname, indexProcess ? "index-process.cjs" : "nyz-main.cjs");
  if (existsSync(bundle)) {
    const variant =
      args[0] === "exec" || args[0] === "run" ? "headless" : indexProcess ? "index-process" : "commands";
    const loaded = loadBundleWithCodeCache<{ main: Main }>(bundle, { version: NYZHI_VERSION, variant });
    mark(`bundle loaded (code cache ${loaded.cache})`);
    loaded.exports.main(args).then(
      (code) => {
        loaded.saveCodeCache();
        exitWhenIdle(code);
      },
      (error: unknown) => {
        process.stderr.write(
          `nyz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
        process.exitCode = 1;
      },
    );
  } else {
    process.stderr.write(
      `nyz: ${bundle} is missing; reinstall nyzhi (npm install -g nyzhi), or run \`pnpm build\` in a checkout\n`,
    );
    process.exitCode = 1;
  }
}
