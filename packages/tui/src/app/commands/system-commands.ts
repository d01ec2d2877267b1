import { FOOTER_HINTS } from "../../status/status-footer.js";
import type { BuiltinCommand } from "./command-types.js";

/** `/help`: every command with its arguments, then the keys. */
export const helpCommand: BuiltinCommand = {
  name: "help",
  description: "List commands and keys",
  kind: "instant",
  group: "System",
  run: (_args, context) => {
    const lines = context.commands.map(
      (command) => `/${command.name}${command.args ? ` ${command.args}` : ""} — ${command.description}`,
    );
    context.say(
      [
        "Commands:",
        ...lines.map((line) => `  ${line}`),
        "Typing:",
        "  @path attaches a file (up to 100 KB) or a folder's listing: project-relative, ./, ~/ or absolute",
        "  !command runs a shell line under the bash tool's rules; the model sees command and output next turn",
        "  &prompt runs the prompt in the background (as ctrl+b does) and frees the input",
        "  ctrl+v attaches the clipboard's image; pasting (dropping) an image file's path attaches it too",
        "  esc esc on an empty input (or /rewind) goes back to an earlier prompt to edit and resend it",
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
  },
};

/** `/exit`, `/quit`: closes (saves) the session and quits. */
export const exitCommand: BuiltinCommand = {
  name: "exit",
  description: "Quit nyz",
  kind: "instant",
  aliases: ["quit"],
  group: "System",
  run: (_args, context) => context.exit(),
  runWithoutSession: (_args, context) => context.exit(),
};
