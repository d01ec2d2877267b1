#!/usr/bin/env node
import { existsSync } from "node:fs";
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

// A closed pipe (`nyz --help | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${NYZHI_VERSION}\n`);
} else {
  const bundle = join(__dirname, "nyz-main.cjs");
  if (existsSync(bundle)) {
    const variant = args[0] === "exec" || args[0] === "run" ? "headless" : "commands";
    const loaded = loadBundleWithCodeCache<{ main: Main }>(bundle, { version: NYZHI_VERSION, variant });
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
