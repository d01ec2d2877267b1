import { mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import pino, { type Logger } from "pino";
import { type Environment, resolveDirs } from "../paths/data-dirs.js";
import { redactKnownSecrets } from "../secrets/known-secrets.js";

export type { Logger };

/**
 * Paths pino blanks in every log line, so no secret reaches a log file.
 * Any object logged with one of these keys (at the top or one level down) is redacted.
 */
export const REDACTED_LOG_PATHS = [
  "apiKey",
  "api_key",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "authorization",
  "password",
  "secret",
  "*.apiKey",
  "*.api_key",
  "*.token",
  "*.accessToken",
  "*.access_token",
  "*.refreshToken",
  "*.refresh_token",
  "*.authorization",
  "*.Authorization",
  "*.password",
  "*.secret",
  'headers["x-api-key"]',
  "headers.authorization",
];

let shared: Logger | undefined;

/**
 * The process-wide logger. It writes JSON lines to `<data>/logs/nyzhi.log`, never to stdout
 * (stdout belongs to `exec --json`). The level comes from `NYZHI_LOG` (default `info`;
 * `debug`, `trace`, `silent` …).
 */
export function getLogger(env: Environment = process.env): Logger {
  if (shared) return shared;
  const level = env.NYZHI_LOG || "info";
  if (level === "silent") {
    shared = pino({ level: "silent" });
    return shared;
  }
  const dirs = resolveDirs(env);
  mkdirSync(dirs.logs, { recursive: true });
  // Opened here rather than by sonic-boom in the background: pino flushes the destination
  // synchronously when the process exits, and a destination still opening its file throws
  // ("sonic boom is not ready yet") from that exit handler, onto the user's stderr.
  const fd = openSync(join(dirs.logs, "nyzhi.log"), "a");
  const destination = pino.destination({ dest: fd, sync: false });
  shared = pino(
    {
      level,
      redact: { paths: REDACTED_LOG_PATHS, censor: "[redacted]" },
      // Known credentials are also hidden wherever they appear in a line (an error quoting a key).
      hooks: { streamWrite: redactKnownSecrets },
    },
    destination,
  );
  return shared;
}

/** Replaces the shared logger (tests, or hosts that log elsewhere). */
export function setLogger(logger: Logger | undefined): void {
  shared = logger;
}
