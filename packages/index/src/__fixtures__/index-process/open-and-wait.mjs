// A host for index-process-client.test.ts that opens an index process (the child:
// serve-index.mjs), starts it with one call, prints the child's pid and waits to be killed.
import { fileURLToPath } from "node:url";
import { defaultConfig } from "@nyzhi/config";
import { openIndexProcess } from "../../../dist/index.js";

const [root, home] = process.argv.slice(2);
const config = defaultConfig();
config.index.embedding = "none";
const index = openIndexProcess({
  command: process.execPath,
  args: [fileURLToPath(new URL("./serve-index.mjs", import.meta.url))],
  root,
  env: { ...process.env, NYZHI_HOME: home },
  config,
});
await index.status();
process.stdout.write(`${index.pid}\n`);
setInterval(() => {}, 60_000);
