/** Flags accepted before or after any subcommand; they form the config's flag layer. */
export interface GlobalFlags {
  provider?: string;
  model?: string;
  trust?: string;
}
