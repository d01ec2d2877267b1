// Runs the benchmarks and records their figures in docs/performance.md.
//   pnpm bench            every benchmark
//   pnpm bench startup    only the named ones
// Each benchmark folder has a run.mjs exporting `run() → { title, markdown }`; its section in
// docs/performance.md sits between `<!-- bench:NAME -->` markers and is replaced in place.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const docPath = fileURLToPath(new URL("../docs/performance.md", import.meta.url));
const wanted = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`${here}${entry.name}/run.mjs`))
  .map((entry) => entry.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
if (names.length === 0) {
  console.error(`No benchmark named ${wanted.join(", ")}. Known: ${readdirSync(here).join(", ")}`);
  process.exit(2);
}

let failed = false;
for (const name of names) {
  process.stderr.write(`bench ${name} …\n`);
  const module = await import(`./${name}/run.mjs`);
  const { title, markdown, ok } = await module.run();
  const stamp = new Date().toISOString().slice(0, 10);
  const section = `<!-- bench:${name} -->\n## ${title}\n\nMeasured ${stamp} by \`pnpm bench ${name}\`.\n\n${markdown}\n<!-- /bench:${name} -->`;
  record(name, section);
  console.log(`\n## ${title}\n\n${markdown}`);
  if (ok === false) {
    failed = true;
    process.stderr.write(`bench ${name}: target not met\n`);
  }
}

/**
 * Replaces (or appends) one benchmark's section of docs/performance.md, reading the file just
 * before writing it, so edits made to the rest of it while a long benchmark ran are kept.
 */
function record(name, section) {
  const doc = existsSync(docPath) ? readFileSync(docPath, "utf8") : "# Performance\n";
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  const next = pattern.test(doc) ? doc.replace(pattern, () => section) : `${doc.trimEnd()}\n\n${section}\n`;
  const temp = `${docPath}.${process.pid}.tmp`;
  writeFileSync(temp, next);
  renameSync(temp, docPath);
}
process.stderr.write(`recorded in ${docPath}\n`);
process.exitCode = failed ? 1 : 0;
