import type { Environment } from "@nyzhi/config";
import type { OpenedSession, SessionResume } from "@nyzhi/core";
import type { SlashCommand } from "../../commands/command-registry.js";
import type { TranscriptInput } from "../../transcript/transcript-types.js";
import type { PickerSpec } from "../picker.js";
import type { BackgroundTurn } from "../use-background-turns.js";

/** What a slash command may do: the session's public API and the app's own surfaces. */
export interface CommandContext {
  /** The open session (commands run only once it is open). */
  session: OpenedSession;
  /** A turn is running. */
  busy: boolean;
  env: Environment;
  /** Every command the app knows (for `/help`). */
  commands: readonly AppCommand[];
  dispatch(input: TranscriptInput): void;
  /** An info (or warning) line in the transcript. */
  say(message: string, tone?: "info" | "warning"): void;
  /** Sends a prompt to the model as the user's turn (or queues it while one runs). */
  send(text: string, options?: { display?: string }): void;
  openPicker(picker: PickerSpec): void;
  /** Closes (saves) this session and opens `resume`'s (`/sessions`), or a new one (`/clear`). */
  switchSession(resume: SessionResume | undefined): Promise<void>;
  /** The agents panel: `/agents` shows (with the keys) or hides it. */
  agents: { toggle(): void };
  /** Turns sent to the background with Ctrl+B (`/bg`): the list, and stopping the running one. */
  background: { list(): readonly BackgroundTurn[]; stop(): boolean };
  /** Plan mode ended with a plan written: offer to execute it with one key. */
  offerPlan(plan: string): void;
  /** The footer shows the model from `session.model`; call after changing it. */
  refresh(): void;
  exit(): void;
}

/** Runs a command with what followed its name (trimmed, may be ""). */
export type CommandHandler = (args: string, context: CommandContext) => void | Promise<void>;

export type AppCommand = SlashCommand<CommandHandler>;
