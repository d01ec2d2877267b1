import { homedir } from "node:os";
import { type Environment, NyzhiError } from "@nyzhi/config";
import type { UserContentPart } from "@nyzhi/provider";
import type { TurnInput } from "../agent-loop/run-turn.js";
import { type ImageSource, type ReadImage, readImage } from "../mentions/image-attachments.js";
import {
  type Attachment,
  contextBlock,
  type RefusedMention,
  resolveMentions,
} from "../mentions/resolve-mentions.js";
import type { AgentRuntime } from "../runtime/create-agent-runtime.js";
import type { ResolvedModel } from "../runtime/model-resolver.js";

/** A message ready for `runTurn`, with what the host shows of it. */
export interface PreparedMessage {
  /** The turn's input: images first, then the `<context>` block and the text. */
  input: TurnInput;
  /** Each attached file, folder and image (the host shows one chip per attachment). */
  attachments: Attachment[];
  /** `@paths` that name something the session may not read, with the reason (deny rules, sandbox). */
  refused: RefusedMention[];
}

/** The model cannot take images: said before anything is sent. */
export class ImageInputError extends NyzhiError {
  constructor(readonly model: string) {
    super(
      "image_input_unsupported",
      `${model} does not take image input: remove the image, or switch to a model that does (/model, --model).`,
    );
  }
}

/** Whether the model takes images; unknown models (not in the registry) are given the benefit of the doubt. */
export function acceptsImages(model: ResolvedModel): boolean {
  return model.info?.supportsVision ?? true;
}

export interface PrepareOptions {
  runtime: AgentRuntime;
  model: ResolvedModel;
  projectRoot: string;
  cwd: string;
  env: Environment;
  /** Pasted or dropped images (`nyz exec -i`, the app's image chips). */
  images?: readonly ImageSource[] | undefined;
}

/**
 * Turns what the person typed into the turn's input: `@path` mentions resolved (files and folders
 * into a `<context>` block before the text, images as image parts), refused ones reported, images
 * read. A model without image input refuses images here, before anything is sent.
 */
export async function prepareMessage(text: string, options: PrepareOptions): Promise<PreparedMessage> {
  const { runtime } = options;
  const readTool = runtime.context.tools.get("read");
  const resolved = await resolveMentions(text, {
    projectRoot: options.projectRoot,
    cwd: options.cwd,
    home: options.env.HOME ?? homedir(),
    async refusal(path) {
      if (!readTool) return undefined;
      // The person named the file: a deny rule or the sandbox refuses it; an "ask" is their answer.
      const decision = await runtime.context.gate.decide({
        callId: "mention",
        tool: readTool,
        input: { path },
        paths: [{ path, access: "read" }],
        preview: undefined,
        agent: runtime.context.agent,
      });
      return decision.action === "deny" ? decision.reason : undefined;
    },
  });
  const given: ReadImage[] = [];
  for (const source of options.images ?? []) given.push(await readImage(source));
  const images = [...given, ...resolved.images];
  if (images.length > 0 && !acceptsImages(options.model)) {
    throw new ImageInputError(`${options.model.providerId}/${options.model.modelId}`);
  }
  const attachments: Attachment[] = [
    ...given.map((image) => ({
      kind: "image" as const,
      path: image.name,
      mediaType: image.part.mediaType,
      bytes: image.bytes,
    })),
    ...resolved.attachments,
  ];
  // The context block is a part of its own, so the typed text stays the last part (its mode
  // prefixes, the session's title and a rewind read only what was typed).
  const context = contextBlock(resolved.blocks);
  const parts: UserContentPart[] = [
    ...images.map((image): UserContentPart => image.part),
    ...(context === undefined ? [] : [{ type: "text" as const, text: context }]),
  ];
  const input: TurnInput = parts.length === 0 ? text : [...parts, { type: "text", text }];
  return { input, attachments, refused: resolved.refused };
}
