import type { Environment } from "@nyzhi/config";
import type { AgentEvent } from "../events/agent-events.js";
import type { ImageSource } from "../mentions/image-attachments.js";
import type { AgentRuntime } from "../runtime/create-agent-runtime.js";
import type { ResolvedModel } from "../runtime/model-resolver.js";
import { acceptsImages, type PreparedMessage, prepareMessage } from "./prepare-message.js";
import type { EarlierPrompt, RewindPlan, RewindResult, ThreadRewind } from "./session-rewind.js";
import { runShellLine, type ShellLineResult, shellLineMessage } from "./session-shell.js";

/** The session's verbs for what the person types besides prompts: `@path`, `!command`, images, rewind. */
export interface SessionInput {
  /**
   * What the person typed, ready for `runTurn`: `@path` mentions resolved into a `<context>` block
   * (files, folders) and image parts, `images` (pasted, dropped, `-i`) attached. Throws
   * `ImageInputError` when the model takes no images.
   */
  prepareMessage(text: string, options?: { images?: readonly ImageSource[] }): Promise<PreparedMessage>;
  /** Whether the lead's model takes images (the app says so when one is pasted). */
  acceptsImages(): boolean;
  /**
   * Runs a `!command` line under the `bash` tool's rules (sandbox, deny rules, approval), yielding
   * its events; the command and its output join the lead's conversation (its next request holds
   * them) and the session is saved.
   */
  shell(command: string, options?: { signal?: AbortSignal }): AsyncGenerator<AgentEvent, ShellLineResult>;
  /** The prompts sent in this session that are still in the thread, oldest first (`/rewind`). */
  prompts(): EarlierPrompt[];
  /** What rewinding to the prompt at `index` would drop and undo (to show before confirming). */
  planRewind(index: number): RewindPlan;
  /**
   * Rewinds the lead's thread to before the prompt at `index` (it and the later turns leave the
   * thread) and undoes the file changes made since, as `/undo` does; saves. Returns the prompt's
   * text for the person to edit and send again. Refused while a turn runs.
   */
  rewind(index: number): Promise<RewindResult>;
}

/** What the input verbs need of the session being built. */
export interface SessionInputParts {
  parts: {
    /** The lead's model now. */
    current(): ResolvedModel;
    loaded: { projectRoot: string };
    cwd: string;
    env: Environment;
    /** Messages waiting for the running turn's next step. */
    queue: string[];
  };
  runtime: AgentRuntime;
  rewinds: ThreadRewind;
  /** Whether a turn of the lead runs now. */
  running(): boolean;
  save(options?: { evenIfEmpty?: boolean }): Promise<void>;
}

export function sessionInput(input: SessionInputParts): SessionInput {
  const { parts, runtime, rewinds } = input;
  return {
    prepareMessage: (text, options = {}) =>
      prepareMessage(text, {
        runtime,
        model: parts.current(),
        projectRoot: parts.loaded.projectRoot,
        cwd: parts.cwd,
        env: parts.env,
        images: options.images,
      }),
    acceptsImages: () => acceptsImages(parts.current()),
    async *shell(command, options = {}) {
      const result = yield* runShellLine(runtime, command, options);
      const message = shellLineMessage(result);
      // During a turn the lead reads it at its next step, as a message typed meanwhile.
      if (input.running()) parts.queue.push(message.content as string);
      else {
        runtime.context.thread.push(message);
        await input.save();
      }
      return result;
    },
    prompts: () => rewinds.prompts(),
    planRewind: (index) => rewinds.plan(index),
    async rewind(index) {
      if (input.running()) throw new Error("A turn is running: interrupt it (Esc) before rewinding.");
      const result = await rewinds.rewind(index);
      await input.save({ evenIfEmpty: true });
      return result;
    },
  };
}
