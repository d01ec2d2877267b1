import { parseAutopilotCommand } from "@nyzhi/core";
import type { BuiltinCommand } from "./command-types.js";

/**
 * `/autopilot <idea>`: core's autopilot takes the idea through expansion, planning, execution, QA
 * and validation, each a turn of the lead (Esc interrupts the phase; `/autopilot resume` goes on).
 * `/autopilot` shows where it stands, `cancel` stops it, `clear` deletes its state.
 */
export const autopilotCommand: BuiltinCommand = {
  name: "autopilot",
  description: "Take an idea through requirements, plan, execution, QA and validation",
  kind: "prompt",
  args: "[idea|resume|cancel|clear]",
  group: "Agent",
  run: async (args, context) => {
    const typed = `/autopilot${args ? ` ${args}` : ""}`;
    const command = parseAutopilotCommand(typed);
    if (!command) return;
    const { session } = context;
    if (command.verb === "start" || command.verb === "resume") {
      const started = context.startTurn(
        (current, signal) => current.autopilot.run(command, { signal }),
        typed,
      );
      if (!started) context.say("Wait for the turn to end (or press Esc) first.", "warning");
      return;
    }
    // Showing, cancelling and clearing run no turn: their answer is the result's text.
    const run = session.autopilot.run(command, { signal: new AbortController().signal });
    let next = await run.next();
    while (!next.done) next = await run.next();
    context.say(next.value.text);
  },
};
