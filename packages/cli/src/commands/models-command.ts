import { formatModelTable, listModels } from "@nyzhi/provider";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";

/** `nyz models [provider] [--json]`: the model registry (context window, prices, tier, thinking). */
export async function modelsCommand(
  io: CommandIo,
  providerId: string | undefined,
  options: { json?: boolean },
): Promise<number> {
  const models = listModels(providerId);
  if (models.length === 0) {
    io.stderr(
      `No models known for provider '${providerId}'. Run \`nyz models\` to see every provider's models.\n`,
    );
    return ExitCode.failure;
  }
  io.stdout(options.json ? `${JSON.stringify(models, null, 2)}\n` : formatModelTable(models));
  return ExitCode.success;
}
