#!/usr/bin/env node
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { NYZHI_VERSION } from "../version.js";

// A closed pipe (`nyz --help | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

type Main = (args: readonly string[]) => Promise<number>;

// Fast path: answer `nyz --version` before loading the argument parser or any package.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${NYZHI_VERSION}\n`);
} else {
  // The built CLI runs from its CommonJS bundle through V8's code cache (see code-cache.ts);
  // without that bundle (running from source) it loads the ES modules.
  const bundle = fileURLToPath(new URL("./nyz-main.cjs", import.meta.url));
  if (existsSync(bundle)) {
    const { loadBundleWithCodeCache } = await import("./code-cache.js");
    const variant = args[0] === "exec" || args[0] === "run" ? "headless" : "commands";
    const loaded = loadBundleWithCodeCache<{ main: Main }>(bundle, { version: NYZHI_VERSION, variant });
    process.exitCode = await loaded.exports.main(args);
    loaded.saveCodeCache();
  } else {
    const { main } = await import("../main.js");
    process.exitCode = await main(args);
  }
}
