// Launch → input box drawn of two builds of nyz, alternately in one sitting (A B, B A, …), so a
// loaded machine's drift hits both alike: `A=<dist> B=<dist> node bench/tui/launch-ab.mjs`
// (each a copy of packages/cli/dist; RUNS launches each after one warm-up, default 10). Prints the
// medians, the median of per-pair ratios A/B, and the medians of each build's NYZHI_TRACE_START
// marks. Each build keeps its own code cache, written by its warm-up launch.
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ControlTerminal } from "./control-terminal.mjs";
import { startMockWorker } from "./mock-worker.mjs";
import { appEnv, launch, quit, sleep } from "./phases.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RUNS = Number(process.env.RUNS ?? 10);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!process.env.A || !process.env.B) {
  console.error("usage: A=<dist dir> B=<dist dir> node bench/tui/launch-ab.mjs");
  process.exit(2);
}
const mock = await startMockWorker(join(root, "tools/mock-llm/dist/index.js"), {
  rules: [{ response: { text: "ok" } }],
});
const workspace = await mkdtemp(join(tmpdir(), "nyzhi-bench-launch-ab-"));
execFileSync("git", ["init", "-q"], { cwd: workspace });
await writeFile(join(workspace, "notes.txt"), "line 0\n");
const builds = {};
for (const name of ["A", "B"]) {
  // Inside packages/cli/node_modules, so the bundles' external packages resolve as in the tree.
  const directory = join(root, "packages/cli/node_modules", `.nyzhi-launch-ab-${name}-${process.pid}`);
  await cp(process.env[name], directory, { recursive: true });
  const home = await mkdtemp(join(tmpdir(), `nyzhi-bench-launch-ab-home-${name}-`));
  const trace = join(home, "trace.txt");
  const env = appEnv({ workspace, home, mockUrl: mock.url }, { NYZHI_TRACE_START: trace });
  const term = await ControlTerminal.start({ env, cwd: workspace, columns: 100, rows: 30 });
  builds[name] = { directory, trace, term, nyz: join(directory, "nyz.cjs"), drawn: [] };
}
try {
  for (let index = 0; index <= RUNS; index++) {
    for (const name of index % 2 ? ["A", "B"] : ["B", "A"]) {
      const build = builds[name];
      const opened = await launch(build.term, { nyz: build.nyz, cwd: workspace });
      // Past the app's code-cache write (a second after loading), so the warm-up leaves one.
      await sleep(1300);
      await quit(build.term);
      if (index > 0) build.drawn.push(opened.drawnMs);
    }
  }
  for (const name of ["A", "B"]) {
    const build = builds[name];
    const marks = {};
    // One block of marks per launch, each starting with "bin"; the warm-up's is dropped.
    const launches = (await readFile(build.trace, "utf8")).split(/\n(?=[\d.]+ bin\n)/).slice(1);
    for (const block of launches) {
      for (const line of block.split("\n")) {
        const match = /^([\d.]+) (.+)$/.exec(line);
        if (!match || match[2] === "exit") continue;
        marks[match[2]] ??= [];
        marks[match[2]].push(Number(match[1]));
      }
    }
    console.log(
      `${name} ${process.env[name]}: launch → input box drawn, median ${median(build.drawn).toFixed(0)} ms`,
    );
    console.log(
      `  marks: ${Object.entries(marks)
        .map(([mark, at]) => `${mark} ${median(at).toFixed(0)}`)
        .join(" | ")}`,
    );
  }
  const ratios = builds.A.drawn.map((drawn, index) => drawn / builds.B.drawn[index]);
  console.log(`A/B, median of ${RUNS} per-pair ratios: ${median(ratios).toFixed(3)}`);
} finally {
  for (const build of Object.values(builds)) {
    await build.term.close();
    await rm(build.directory, { recursive: true, force: true });
  }
  await mock.close();
}
