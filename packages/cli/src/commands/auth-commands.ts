import { authStatus, formatAuthStatus, type LoginIo, login, logout, openCredentialStore } from "@nyzhi/auth";
import { BUILT_IN_PROVIDERS, findBuiltInProvider, NyzhiError } from "@nyzhi/config";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { promptLine } from "../io/prompt-line.js";
import { loadCliConfig } from "./load-cli-config.js";
import {
  type ApiKeyOption,
  hasTerminal,
  loginKeyFromOptions,
  providerNeededError,
} from "./login-key-input.js";

function loginIo(io: CommandIo): LoginIo {
  return { print: (line) => io.stderr(`${line}\n`), prompt: promptLine };
}

async function chooseProvider(io: CommandIo): Promise<string> {
  io.stderr("Log in to which provider?\n");
  BUILT_IN_PROVIDERS.forEach((provider, index) => {
    io.stderr(
      `  ${String(index + 1).padStart(2)}. ${provider.name} (${provider.id})${provider.oauth ? "" : "  [API key]"}\n`,
    );
  });
  const answer = await promptLine("Number or id: ", { secret: false });
  const byNumber = BUILT_IN_PROVIDERS[Number(answer) - 1];
  const chosen = byNumber ?? findBuiltInProvider(answer);
  if (!chosen)
    throw new NyzhiError(
      "usage",
      `Unknown provider '${answer}'. Run \`nyz login <id>\` with one of: ${BUILT_IN_PROVIDERS.map((p) => p.id).join(", ")}`,
    );
  return chosen.id;
}

/**
 * `nyz login [provider]`: OAuth where the provider offers it, else an API key (hidden prompt).
 * `--api-key KEY` saves KEY; `--api-key -` reads it from stdin. Without a terminal and without
 * `--api-key`, it fails at once (exit 2) saying how to pass a key.
 */
export async function loginCommand(
  io: CommandIo,
  providerId: string | undefined,
  options: { apiKey?: ApiKeyOption; label?: string },
): Promise<number> {
  let apiKeyOption = options.apiKey;
  // `nyz login --api-key anthropic`: commander took the provider for the flag's value.
  if (providerId === undefined && typeof apiKeyOption === "string" && findBuiltInProvider(apiKeyOption)) {
    providerId = apiKeyOption;
    apiKeyOption = true;
  }
  if (providerId === undefined && !hasTerminal(io)) throw providerNeededError();
  const id = providerId ?? (await chooseProvider(io));
  const apiKey = await loginKeyFromOptions(io, id, apiKeyOption);
  const result = await login({
    providerId: id,
    io: loginIo(io),
    env: io.env,
    ...(apiKeyOption !== undefined && apiKeyOption !== false ? { method: "api-key" as const } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(options.label ? { label: options.label } : {}),
  });
  if (result.status === "cancelled") {
    io.stderr(`No key entered; nothing was saved for ${id}.\n`);
    return ExitCode.failure;
  }
  io.stderr(
    `Logged in to ${id} (account ${result.label}, ${result.type}, stored in the ${result.storeKind}).\n`,
  );
  return ExitCode.success;
}

/** `nyz logout <provider> [--account LABEL]`. */
export async function logoutCommand(
  io: CommandIo,
  providerId: string,
  options: { account?: string },
): Promise<number> {
  const result = await logout({
    providerId,
    env: io.env,
    ...(options.account ? { account: options.account } : {}),
  });
  if (result.removed.length === 0) io.stderr(`No stored credentials for ${providerId}.\n`);
  else io.stderr(`Logged out from ${providerId} (removed ${result.removed.join(", ")}).\n`);
  return ExitCode.success;
}

/** `nyz auth status [--json]`: where each provider's credential comes from; secrets masked. */
export async function authStatusCommand(
  io: CommandIo,
  flags: GlobalFlags,
  options: { json?: boolean },
): Promise<number> {
  const { config } = await loadCliConfig(io, flags);
  // The same store `nyz login` saves to (keychain, else auth.json; NYZHI_CREDENTIAL_STORE picks).
  const { store } = await openCredentialStore({ env: io.env });
  const rows = await authStatus({ env: io.env, config, store });
  io.stdout(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatAuthStatus(rows));
  return ExitCode.success;
}
