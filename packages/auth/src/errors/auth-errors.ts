import { NyzhiError } from "@nyzhi/config";

/**
 * No credential could be resolved for a provider. The message names the environment variable
 * to set and, for OAuth-capable providers, the `nyz login <id>` command to run.
 */
export class MissingCredentialError extends NyzhiError {
  readonly providerId: string;
  readonly envVar: string;

  constructor(providerId: string, envVar: string, message: string) {
    super("auth_missing", message);
    this.providerId = providerId;
    this.envVar = envVar;
  }
}

/**
 * `auth.json` exists but cannot be read as a token store. nyzhi never overwrites such a file;
 * the message says how to move it aside. It never quotes the file's contents (they hold secrets).
 */
export class CorruptAuthFileError extends NyzhiError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super(
      "auth_file_corrupt",
      `The credential file ${path} is not a valid nyzhi token store (${problem}). ` +
        `nyzhi will not overwrite it. Move it aside (mv "${path}" "${path}.broken") and run \`nyz login\` again.`,
    );
    this.path = path;
  }
}

/** The OS keychain did not answer (no Secret Service / Keychain, locked, or timed out). */
export class KeychainUnavailableError extends NyzhiError {
  constructor(reason: string) {
    super("auth_keychain_unavailable", `The OS keychain is not available: ${reason}`);
  }
}

/**
 * An OAuth or device-code flow failed: state mismatch, timeout, denied, or a failed token request.
 * Messages carry the endpoint and the OAuth `error` code, never a token.
 */
export class OAuthError extends NyzhiError {
  constructor(
    code: "auth_oauth_failed" | "auth_oauth_timeout" | "auth_oauth_state_mismatch" | "auth_refresh_failed",
    message: string,
  ) {
    super(code, message);
  }
}
