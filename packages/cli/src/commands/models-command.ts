import {
  BUILT_IN_PROVIDERS,
  findBuiltInProvider,
  isKnownProvider,
  UnknownProviderError,
} from "@nyzhi/config";
import { defaultModelId, formatModelTable, listModels } from "@nyzhi/provider";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { loadCliConfig } from "./load-cli-config.js";

/** One line for a provider the registry has no models of: what to pass instead. */
function providerWithoutModelsLine(providerId: string): string {
  const name = findBuiltInProvider(providerId)?.name ?? providerId;
  const fallback = defaultModelId(providerId);
  return `${providerId.padEnd(16)}${name.padEnd(22)}${fallback ? `default ${fallback}` : "any model id it serves"}`;
}

/**
 * The built-in providers `nyz models` has no rows for (OpenRouter, Kimi, GLM, …): listed after the
 * table so that every provider shows, with how to pick one of their models.
 */
function providersWithoutModels(): string {
  const missing = BUILT_IN_PROVIDERS.filter((provider) => listModels(provider.id).length === 0);
  if (missing.length === 0) return "";
  return [
    "",
    "",
    "Providers without models in the registry (pass --model <provider>/<model> or set provider.<id>.model):",
    ...missing.map((provider) => `  ${providerWithoutModelsLine(provider.id)}`),
  ].join("\n");
}

/**
 * `nyz models [provider] [--json]`: the model registry (context window, prices, tier, thinking),
 * then every built-in provider it has no models of. An unknown provider id is a usage error that
 * names the nearest known one.
 */
export async function modelsCommand(
  io: CommandIo,
  providerId: string | undefined,
  options: { json?: boolean },
  flags: GlobalFlags = {},
): Promise<number> {
  if (providerId !== undefined && !findBuiltInProvider(providerId)) {
    // Only an id that is not built in needs the config: it may be a `[provider.<id>]` of your own.
    const { config } = await loadCliConfig(io, flags);
    if (!isKnownProvider(providerId, config)) throw new UnknownProviderError(providerId, { config });
  }
  const models = listModels(providerId);
  if (options.json) {
    io.stdout(`${JSON.stringify(models, null, 2)}\n`);
    return ExitCode.success;
  }
  if (providerId !== undefined && models.length === 0) {
    io.stdout(
      `No models of ${providerId} are in the registry: pass the id of one it serves with \`--model ${providerId}/<model>\` ` +
        `(or -p ${providerId} --model <model>), or set provider.${providerId}.model.\n` +
        `  ${providerWithoutModelsLine(providerId)}\n`,
    );
    return ExitCode.success;
  }
  io.stdout(`${formatModelTable(models)}${providerId === undefined ? providersWithoutModels() : ""}\n`);
  return ExitCode.success;
}
