/**
 * The interactive app's bundle (`dist/app.mjs`): @nyzhi/tui with ink and React, built as an ES
 * module (yoga-layout uses top-level await) and loaded by `nyz` only when the app opens. Its
 * @nyzhi/core and @nyzhi/config are the running process's (see tsup.config.ts).
 */
export { runApp } from "@nyzhi/tui";
