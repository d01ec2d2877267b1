import * as config from "./host-config-exports.js";
import * as core from "./host-core-exports.js";

/**
 * What the app's bundle (`dist/app.cjs`) takes of @nyzhi/config and @nyzhi/core: this process's
 * modules, already loaded with the commands' bundle, so core is in memory once. Exactly the names
 * the tui imports, each listed once (in host-config-exports.ts and host-core-exports.ts): building
 * app.cjs fails, naming it, when the tui imports one not listed there (see tsup.config.ts). Whole
 * packages' namespaces would pull every export of core into the commands' bundle (+40 KB, ~2 ms on
 * every `nyz` start); these two files re-export only the listed names.
 */
export const HOST_MODULES = { "@nyzhi/config": config, "@nyzhi/core": core } as const;
