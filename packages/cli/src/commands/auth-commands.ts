import { authStatus, formatAuthStatus, type LoginIo, login, logout } from "@nyzhi/auth";
import { BUILT_IN_PROVIDERS, findBuiltInProvider, NyzhiError } from "@nyzhi/config";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { promptLine } from "../io/prompt-line.js";
import { loadCliConfig } from "./load-cli-config.js";

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

/** `nyz login [provider]`: OAuth where the provider offers it, else an API key (hidden prompt or piped stdin). */
export async function loginCommand(
  io: CommandIo,
  providerId: string | undefined,
  options: { apiKey?: boolean; label?: string },
): Promise<number> {
  const id = providerId ?? (await chooseProvider(io));
  const result = await login({
    providerId: id,
    io: loginIo(io),
    env: io.env,
    ...(options.apiKey ? { method: "api-key" as const } : {}),
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
  const rows = await authStatus({ env: io.env, config });
  io.stdout(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatAuthStatus(rows));
  return ExitCode.success;
}
