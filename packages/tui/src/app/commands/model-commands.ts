import { listModels } from "@nyzhi/core";
import { formatTokens } from "../../status/format-usage.js";
import type { BuiltinCommand, CommandContext } from "./command-types.js";

async function switchModel(spec: string, context: CommandContext): Promise<void> {
  const next = await context.session.setModel(spec);
  context.refresh();
  context.say(`Model: ${next.providerId}/${next.modelId} (from the next request on)`);
}

/**
 * `/model [id]`: with an id (`claude-opus-4-6`, `openai/gpt-5`, a tier alias), the lead's next
 * requests use it; without, a picker of the registry's models (the current provider's first),
 * where Enter on a search that matches none takes the typed id.
 */
export const modelCommand: BuiltinCommand = {
  name: "model",
  description: "Pick the model, or switch to an id",
  kind: "instant",
  args: "[id]",
  group: "Provider",
  run: async (args, context) => {
    if (args) return switchModel(args, context);
    const current = context.session.model;
    const models = [
      ...listModels(current.providerId),
      ...listModels().filter((info) => info.providerId !== current.providerId),
    ];
    context.openPicker({
      title: `Model (now ${current.providerId}/${current.modelId})`,
      allowFree: true,
      items: models.map((info) => ({
        label: `${info.providerId}/${info.id}`,
        description: `${info.name} · ${formatTokens(info.contextWindow)} context · ${info.tier}`,
        value: `${info.providerId}/${info.id}`,
      })),
      onPick: (spec) =>
        switchModel(spec, context).catch((error: unknown) =>
          context.say(error instanceof Error ? error.message : String(error), "warning"),
        ),
    });
  },
};
