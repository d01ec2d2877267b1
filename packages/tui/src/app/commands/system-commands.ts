import { FOOTER_HINTS } from "../../status/status-footer.js";
import type { CommandHandler } from "./command-types.js";

/** `/help`: every command with its arguments, then the keys. */
const help: CommandHandler = (_args, context) => {
  const lines = context.commands.map(
    (command) => `/${command.name}${command.args ? ` ${command.args}` : ""} — ${command.description}`,
  );
  context.say(
    [
      "Commands:",
      ...lines.map((line) => `  ${line}`),
      "Keys:",
      `  ${FOOTER_HINTS.idle}`,
      "  a new line: shift+enter, alt+enter, ctrl+j, or \\ at the line's end then enter",
      "  history: ↑/↓ walk earlier prompts, ctrl+r searches them (enter takes one, esc leaves)",
      "  ctrl+a/ctrl+e line start/end · ctrl+u delete to line start · ctrl+w delete a word · @ completes files",
      `  while a turn runs: ${FOOTER_HINTS.busy}`,
      `  approvals: ${FOOTER_HINTS.approval}`,
      `  agents panel (ctrl+t): ${FOOTER_HINTS.agents}; in an agent's transcript: i input · x stop · r resume · c copy · esc back`,
      "  ctrl+c clears the input; twice quits",
    ].join("\n"),
  );
};

/** `/exit` (the app closes the session itself; this is for the palette's list). */
const exit: CommandHandler = (_args, context) => context.exit();

export const SYSTEM_COMMANDS: Readonly<Record<string, CommandHandler>> = { help, exit };
