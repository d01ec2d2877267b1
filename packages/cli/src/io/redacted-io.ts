import { redactKnownSecrets, registerEnvironmentSecrets } from "@nyzhi/config";
import type { CommandIo } from "./output.js";

/**
 * `io` with every known credential (see `registerSecret`) replaced by `[redacted]` in what it
 * writes. The environment's credential variables (`*_API_KEY`, `*_TOKEN` …) are registered first;
 * keys from config, flags and the credential store are registered as they are resolved.
 */
export function redactedIo(io: CommandIo): CommandIo {
  registerEnvironmentSecrets(io.env);
  const redacted: CommandIo = {
    env: io.env,
    cwd: io.cwd,
    stdout: (text) => io.stdout(redactKnownSecrets(text)),
    stderr: (text) => io.stderr(redactKnownSecrets(text)),
  };
  // Copied as descriptors: `processIo` creates `stdin` only when it is first read.
  for (const key of ["stdin", "stdinFileText", "isTerminal"] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(io, key);
    if (descriptor) Object.defineProperty(redacted, key, descriptor);
  }
  return redacted;
}
