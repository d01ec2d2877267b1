#!/usr/bin/env node
import { NYZHI_VERSION } from "../version.js";

// A closed pipe (`nyz --help | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

// Fast path: answer `nyz --version` before loading the argument parser or any package.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${NYZHI_VERSION}\n`);
} else {
  const { main } = await import("../main.js");
  process.exitCode = await main(args);
}
