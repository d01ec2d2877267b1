import { NyzhiError } from "./errors.js";

/** Stable codes for `ConfigError.code`. */
export type ConfigErrorCode =
  | "config_invalid_toml"
  | "config_invalid_value"
  | "config_unknown_key"
  | "config_global_only"
  | "config_read_failed"
  | "config_mcp_server_exists";

export interface ConfigErrorDetails {
  /** The file (or env var / flag name) the bad value came from. */
  file?: string | undefined;
  /** 1-based line in `file`, when known. */
  line?: number | undefined;
  /** 1-based column in `file`, when known. */
  column?: number | undefined;
  /** Dotted key path of the offending value, e.g. `agent.trust.mode`. */
  keyPath?: string | undefined;
}

/**
 * A config file nyzhi cannot use: invalid TOML, a value of the wrong type or spelling, or a
 * write that would produce one. The message already names the file, line and key; the fields
 * let a host point at them without parsing the message.
 */
export class ConfigError extends NyzhiError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly keyPath: string | undefined;

  constructor(
    code: ConfigErrorCode,
    message: string,
    details: ConfigErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.file = details.file;
    this.line = details.line;
    this.column = details.column;
    this.keyPath = details.keyPath;
  }
}

/** Something in a config the user should fix, but that does not stop nyzhi. */
export interface ConfigWarning {
  kind:
    | "unknown-key"
    | "global-only"
    | "deprecated-key"
    | "untrusted-project"
    /** A key nyzhi no longer has (see REMOVED_KEYS): ignored. */
    | "removed-key"
    /** A key of a feature still being built (see NOT_YET_READ_KEYS): kept, but nothing reads it yet. */
    | "not-yet-read";
  /** File path, env var name or flag name. */
  source: string;
  line?: number;
  keyPath: string;
  /** Every key the warning is about, when it names several (`untrusted-project`). */
  keyPaths?: string[];
  /** The full line to show, starting with `warning: `. */
  message: string;
}
