import { NyzhiError } from "@nyzhi/config";

/** Why the guarded GET refused or gave up; `web_fetch` shows it to the model as its failure. */
export class WebGuardError extends NyzhiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("tool_failed", message, options);
  }
}
