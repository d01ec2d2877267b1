import { markStartup, NyzhiError } from "@nyzhi/config";
import type { HeadlessFlags } from "../headless/headless-options.js";
import { jsonLine } from "../headless/json-event-writer.js";
import { fatalErrorLine } from "../headless/json-run-lines.js";
import { readPipedStdin } from "../headless/read-input.js";
import { runHeadless } from "../headless/run-headless.js";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { reportError } from "../io/report-error.js";

/**
 * `nyz run PROMPT` and `nyz exec [PROMPT]` (exec also reads piped stdin). Ctrl-C stops the turn
 * cleanly (the session is saved) and exits 130; a second Ctrl-C exits at once.
 */
export async function headlessCommand(
  io: CommandIo,
  globals: GlobalFlags,
  flags: HeadlessFlags,
  options: {
    mode: "run" | "exec";
    prompt: string | undefined;
    /** Where piped input comes from (exec only). */
    stdin?: Pick<CommandIo, "stdin" | "stdinFileText"> | undefined;
  },
): Promise<number> {
  const controller = new AbortController();
  markStartup("headless command");
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const prompt = options.prompt ?? "";
    let piped = "";
    if (options.mode === "exec" && options.stdin) {
      const source = options.stdin;
      // A file or /dev/null is read at once; with a prompt argument, an open but silent pipe is not waited for.
      piped =
        source.stdinFileText?.() ??
        (source.stdin ? await readPipedStdin(source.stdin, prompt ? { idleMs: 250 } : {}) : "");
    }
    if (!prompt.trim() && !piped.trim()) {
      throw new NyzhiError("usage", 'No prompt provided. Usage: nyz exec "prompt" or pipe stdin.');
    }
    return await runHeadless(io, globals, flags, {
      prompt,
      ...(piped.trim() ? { piped } : {}),
      mode: options.mode,
      signal: controller.signal,
    });
  } catch (error) {
    if (flags.json) {
      io.stdout(jsonLine(fatalErrorLine(error)));
    }
    return reportError(io, error);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
