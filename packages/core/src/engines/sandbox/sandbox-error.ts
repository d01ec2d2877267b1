import { NyzhiError } from "@nyzhi/config";

/**
 * A path or command the sandbox refuses. The message names the real path and the rule (level,
 * root, deny pattern) so the model and the user can see why and what would be allowed.
 */
export class SandboxError extends NyzhiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("sandbox_denied", message, options);
  }
}
