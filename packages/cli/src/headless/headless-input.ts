import type { AgentEvent, OpenedSession, TurnInput, TurnResult } from "@nyzhi/core";
import { emptyUsage } from "@nyzhi/provider";
import type { CommandIo } from "../io/output.js";
import type { HeadlessFlags } from "./headless-options.js";

/** The command of a `!command` prompt (`nyz exec "!make test"`); undefined for any other prompt. */
export function shellLineOf(prompt: string): string | undefined {
  const trimmed = prompt.trimStart();
  if (!trimmed.startsWith("!")) return undefined;
  const command = trimmed.slice(1).trim();
  return command === "" ? undefined : command;
}

/**
 * Runs a `!command` prompt through the session (the `bash` tool's rules; no model turn): yields
 * its events, and returns it as a turn whose answer is the command's output, so text mode prints
 * it on stdout and `--json` ends with `turn_complete` as usual.
 */
export async function* shellPromptTurn(
  session: OpenedSession,
  command: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, TurnResult> {
  const result = yield* session.shell(command, { signal });
  const reason = signal.aborted ? "aborted" : result.isError ? "error" : "completed";
  return { reason, steps: 0, text: result.output, usage: emptyUsage(), costUsd: 0 };
}

/**
 * The turn's input: `@path` mentions attached and `-i` images read by the session. What was
 * attached is said on stderr (unless `--quiet` or `--json`); what was refused always is.
 */
export async function headlessTurnInput(
  session: OpenedSession,
  prompt: string,
  options: { io: CommandIo; flags: HeadlessFlags },
): Promise<TurnInput> {
  const { io, flags } = options;
  const prepared = await session.prepareMessage(prompt, {
    images: (flags.image ?? []).map((path) => ({ path })),
  });
  if (!flags.quiet && !flags.json) {
    for (const attachment of prepared.attachments) {
      const detail =
        attachment.kind === "file"
          ? `${attachment.lines} lines${attachment.truncated ? ", cut at 100 KB" : ""}`
          : attachment.kind === "directory"
            ? `${attachment.entries} entries${attachment.truncated ? ", listing cut" : ""}`
            : attachment.mediaType;
      io.stderr(`Attached ${attachment.path} (${detail})\n`);
    }
  }
  for (const refused of prepared.refused)
    io.stderr(`warning: not attached: ${refused.path}: ${refused.reason}\n`);
  return prepared.input;
}
