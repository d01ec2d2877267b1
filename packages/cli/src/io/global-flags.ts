/** Flags accepted before or after any subcommand; they form the config's flag layer. */
export interface GlobalFlags {
  provider?: string;
  model?: string;
  trust?: string;
  /**
   * `--trust-project`: the project's own settings that widen power (trust mode, sandbox, hooks,
   * MCP servers …) apply for this run as if `nyz trust` had been run (for CI).
   */
  trustProject?: boolean;
}
