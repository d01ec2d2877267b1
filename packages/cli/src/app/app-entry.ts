/**
 * The interactive app's bundle (`dist/app.cjs`): @nyzhi/tui with ink and React, built as CommonJS
 * (so the bin runs it through V8's code cache; decision 019) and loaded by `nyz` only when the app
 * opens. Its @nyzhi/core and @nyzhi/config are the running process's (see tsup.config.ts).
 */
export { runApp } from "@nyzhi/tui";
