import type { Environment } from "@nyzhi/config";
import type { OpenedSession, SessionResume } from "@nyzhi/core";
import type { SlashCommand } from "../../commands/command-registry.js";
import type { TranscriptInput } from "../../transcript/transcript-types.js";
import type { PickerSpec } from "../picker.js";
import type { BackgroundTurn } from "../use-background-turns.js";
import type { NotifySettings } from "../use-notify.js";
import type { TurnStarter } from "../use-session.js";

/** What every command may do, with or without a session: the app's own surfaces. */
export interface HostContext {
  /** A turn is running. */
  busy: boolean;
  env: Environment;
  /** Every command the app knows (for `/help`). */
  commands: readonly AppCommand[];
  dispatch(input: TranscriptInput): void;
  /** An info (or warning) line in the transcript. */
  say(message: string, tone?: "info" | "warning"): void;
  /** Asks for a provider's API key (masked) and saves it (`/login <provider> key`). */
  askApiKey(providerId: string): void;
  /**
   * The provider's browser login (`/login <provider> oauth`): shows the URL, waits for the
   * callback, saves the token; the session uses it at once (opened, or reopened on its conversation).
   */
  loginWithBrowser(providerId: string): void;
  /** A list to choose from, over the input (works before the session is open too). */
  openPicker(picker: PickerSpec): void;
  /** The provider whose credentials are missing (the session could not open), if any. */
  missingProvider: string | undefined;
  exit(): void;
}

/** What a slash command may do: the session's public API and the app's own surfaces. */
export interface CommandContext extends HostContext {
  /** The open session. */
  session: OpenedSession;
  /** Sends a prompt to the model as the user's turn (or queues it while one runs). */
  send(text: string, options?: { display?: string }): void;
  /**
   * Runs a turn that is not a prompt (`/autopilot`) in the foreground, shown as `display`: Esc
   * interrupts it. False when a turn runs already.
   */
  startTurn(start: TurnStarter, display: string): boolean;
  /** Lists the session's earlier prompts to go back to (`/rewind`, Esc Esc). */
  rewind(): void;
  /** Closes (saves) this session and opens `resume`'s (`/sessions`), or a new one (`/clear`). */
  switchSession(resume: SessionResume | undefined): Promise<void>;
  /**
   * Reopens this session on the same conversation with the config loaded again, so changed
   * settings apply now (`/trust on`): the new session, or undefined when it could not (a turn runs).
   */
  reopenSession(): Promise<OpenedSession | undefined>;
  /** The agents panel: `/agents` shows (with the keys) or hides it. */
  agents: { toggle(): void };
  /** Turns sent to the background with Ctrl+B (`/bg`): the list, and stopping the running one. */
  background: { list(): readonly BackgroundTurn[]; stop(): boolean };
  /** Plan mode ended with a plan written: offer to execute it with one key. */
  offerPlan(plan: string): void;
  /** The footer shows the model from `session.model`; call after changing it. */
  refresh(): void;
  /** Searches the transcript (`/search`): the match shows over the input; Ctrl+N next, Esc clears. */
  search(query: string): void;
  /** Opens `$VISUAL`/`$EDITOR` on the input's text and puts the result back (`/editor`). */
  composeInEditor(): Promise<void>;
  /** When the app rings or notifies (`/notify`). */
  notify: { settings(): NotifySettings; update(settings: NotifySettings): void };
  /** Prompts waiting for the running turn: dropped by `/clear queue` and `/stop`. */
  queue: { clear(): number };
  /** Interrupts the running turn (as Esc). */
  interrupt(): void;
}

/** Runs a command with what followed its name (trimmed, may be ""). */
export type CommandHandler = (args: string, context: CommandContext) => void | Promise<void>;

/**
 * A command the app lists and runs: built-ins (each one object in its group's file) and the
 * session's catalogue (custom commands, MCP prompts, skills). Running always means `run`.
 */
export interface AppCommand extends SlashCommand<CommandHandler> {
  run: CommandHandler;
  /** What it does before the session is open (`/login`, `/exit`); without it, the app says to wait. */
  runWithoutSession?: ((args: string, context: HostContext) => void | Promise<void>) | undefined;
}

/** A built-in command: one object with its name, description, arguments, kind, group and `run`. */
export interface BuiltinCommand extends AppCommand {
  group: string;
  source?: "builtin";
}
