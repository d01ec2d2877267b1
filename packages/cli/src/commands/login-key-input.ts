import { defaultOAuthProviders, envVarForProvider } from "@nyzhi/auth";
import { BUILT_IN_PROVIDERS, NyzhiError } from "@nyzhi/config";
import { readPipedStdin } from "../headless/read-input.js";
import type { CommandIo } from "../io/output.js";

/** `--api-key` as commander gives it: absent, bare (`true`), or with a value (`-` reads stdin). */
export type ApiKeyOption = boolean | string | undefined;

/**
 * How long a bare `--api-key` without a terminal waits for a key on stdin before saying none came,
 * in ms. `--api-key -` waits for the end of stdin however long it takes (a password manager may ask first).
 */
const BARE_FLAG_STDIN_IDLE_MS = 1500;

/** Whether stdin is a terminal someone can type into (a prompt, a browser login's wait). */
export function hasTerminal(io: CommandIo): boolean {
  return io.stdin?.isTTY === true;
}

/** Over SSH, how the provider's browser login can still be finished; undefined without one. */
function browserLoginOverSsh(providerId: string, env: CommandIo["env"]): string[] {
  const flow = defaultOAuthProviders(env)[providerId];
  if (!flow) return [];
  if (flow.flow === "device-code") {
    return [
      `The browser login of ${providerId} shows a code to enter on a web page, which works over SSH: run`,
      `\`nyz login ${providerId}\` in a terminal.`,
    ];
  }
  const port = flow.port === 0 ? "<port>" : String(flow.port);
  return [
    `The browser login of ${providerId} needs a terminal. Over SSH, run \`nyz login ${providerId}\` in the SSH session and,`,
    `from another terminal on your machine, forward its callback port (${flow.port === 0 ? "the port in the printed URL's redirect_uri" : `port ${port}`}):`,
    `  ssh -N -L ${port}:127.0.0.1:${port} <host>`,
    "then open the printed URL in your browser.",
  ];
}

/** How to log in to `providerId` without a terminal: the lines every such error ends with. */
function howToLogInWithoutTerminal(providerId: string, env: CommandIo["env"]): string {
  const envVar = envVarForProvider(providerId);
  return [
    "Pass the key instead:",
    `  printf %s "$${envVar}" | nyz login ${providerId} --api-key -    (from stdin: stays out of shell history)`,
    `  nyz login ${providerId} --api-key <key>`,
    `or set ${envVar} in the environment of each run, which needs no login.`,
    ...browserLoginOverSsh(providerId, env),
  ].join("\n");
}

/** `nyz login` without a provider and without a terminal to choose one in. */
export function providerNeededError(): NyzhiError {
  return new NyzhiError(
    "login_needs_input",
    `\`nyz login\` without a provider asks which one, and stdin is not a terminal. Name it: nyz login <provider> --api-key -\n` +
      `Providers: ${BUILT_IN_PROVIDERS.map((provider) => provider.id).join(", ")}`,
  );
}

/**
 * The API key a login uses without asking, or undefined when it should ask (a terminal, no key
 * given). `--api-key <key>` is used as given; without a terminal, `--api-key -` reads all of
 * stdin, and a bare `--api-key` reads it too if a key arrives soon (piped keys worked that way
 * before `-`). Without a terminal and without `--api-key`, fails at once (exit 2) saying how to
 * pass a key: a browser login would wait minutes for a callback nobody can give, then read a key
 * from a stdin nobody types into.
 */
export async function loginKeyFromOptions(
  io: CommandIo,
  providerId: string,
  apiKey: ApiKeyOption,
): Promise<string | undefined> {
  if (typeof apiKey === "string" && apiKey !== "-") return nonEmpty(io, apiKey, providerId, "--api-key");
  // On a terminal, `-` and a bare flag ask with a hidden prompt: that is reading stdin.
  if (hasTerminal(io)) return undefined;
  if (apiKey === "-") return nonEmpty(io, await readAllStdin(io), providerId, "stdin");
  if (apiKey === true) {
    return nonEmpty(io, await readAllStdin(io, { idleMs: BARE_FLAG_STDIN_IDLE_MS }), providerId, "stdin");
  }
  const needs = defaultOAuthProviders(io.env)[providerId]
    ? "finish a browser login or ask for a key"
    : "ask for a key";
  throw new NyzhiError(
    "login_needs_input",
    `\`nyz login ${providerId}\` needs a terminal to ${needs}, and stdin is not one.\n` +
      howToLogInWithoutTerminal(providerId, io.env),
  );
}

async function readAllStdin(io: CommandIo, options: { idleMs?: number } = {}): Promise<string> {
  const fromFile = io.stdinFileText?.();
  if (fromFile !== undefined) return fromFile;
  if (!io.stdin) return "";
  return readPipedStdin(io.stdin, options);
}

function nonEmpty(io: CommandIo, key: string, providerId: string, from: "--api-key" | "stdin"): string {
  const trimmed = key.trim();
  if (trimmed) return trimmed;
  throw new NyzhiError(
    "login_needs_input",
    `No API key ${from === "stdin" ? "arrived on stdin" : "was given with --api-key"}; nothing was saved for ${providerId}.\n` +
      howToLogInWithoutTerminal(providerId, io.env),
  );
}
