/**
 * The root of every error nyzhi raises on purpose. Each carries a stable `code` so hosts
 * (the CLI's exit codes, `exec --json` error lines) can react without parsing messages,
 * and a message written for the user: what went wrong, where (file, key, flag), how to fix it.
 */
export class NyzhiError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Renders any thrown value as one line for a user, without a stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
