import { errorMessage, getLogger, NyzhiError } from "@nyzhi/config";
import { ExitCode, USAGE_ERROR_CODES } from "./exit-codes.js";
import type { CommandIo } from "./output.js";

/** Prints an error for the user (no stack for our own errors), logs it, and returns the exit code. */
export function reportError(io: CommandIo, error: unknown): number {
  if (error instanceof NyzhiError) {
    io.stderr(`Error: ${error.message}\n`);
  } else {
    io.stderr(`Error: ${errorMessage(error)}\n`);
    if (error instanceof Error && error.stack && io.env.NYZHI_LOG === "debug") io.stderr(`${error.stack}\n`);
  }
  try {
    getLogger(io.env).error({ err: error }, "command failed");
  } catch {
    // The log file could not be opened (read-only data dir): the user has the message already.
  }
  return error instanceof NyzhiError && USAGE_ERROR_CODES.has(error.code) ? ExitCode.usage : ExitCode.failure;
}
