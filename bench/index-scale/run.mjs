// Code index at scale: the figures issue 31 asks for, on copies of the JavaScript and TypeScript
// under node_modules/.pnpm (paths flattened so the walker's node_modules rule does not drop them):
// 5,000 files (no-change re-index < 1 s, one-file update < 200 ms, indexing memory < 500 MB),
// about 10,000 and 100,000+ chunks (build, no-change and one-file updates, search p50 < 30 ms and
// p95 < 80 ms at 100k, the index process's RSS). Each corpus is measured in its own process
// (bench/index/measure.mjs scale), which holds the index as `nyz __index-process` does.
//   pnpm bench index-scale                   records the table in docs/performance.md
//   node bench/index-scale/run.mjs           the same table on stdout, nothing recorded
//   NYZHI_BENCH_REBUILD=1 pnpm bench index-scale   copies and builds everything again
// The copied corpora and their indexes are kept in bench/index-scale/.cache/ (git-ignored), so a
// second run measures updates and searches only (minutes → about a minute); the build figures
// then come from the run that built them (their date is shown). The machine's load average is
// printed beside the figures: measured on a busy machine they are not a verdict on the targets.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { indexProcessEnv } from "../../packages/index/dist/index.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const measureScript = fileURLToPath(new URL("../index/measure.mjs", import.meta.url));
const cache = fileURLToPath(new URL("./.cache/", import.meta.url));

/** The corpora: files copied (the first of the sorted list), and what each answers. */
const CORPORA = [
  { id: "files-5k", files: 5_000, search: false },
  { id: "chunks-10k", files: 1_700, search: true },
  { id: "chunks-100k", files: 24_000, search: true },
];

/** The sorted list of source files under node_modules/.pnpm (the repository's lockfile pins them). */
function sourceFiles() {
  return execFileSync(
    "find",
    [
      "node_modules/.pnpm",
      "-type",
      "f",
      "(",
      ...["ts", "js", "mjs", "cjs", "tsx"].flatMap((extension, at) => [
        ...(at > 0 ? ["-o"] : []),
        "-name",
        `*.${extension}`,
      ]),
      ")",
    ],
    { cwd: repo, encoding: "utf8", maxBuffer: 64 << 20 },
  )
    .split("\n")
    .filter((path) => path && !path.endsWith(".min.js"))
    .sort();
}

/** The LanceDB the index loads: an index written by another version is built again (their full-text indexes differ). */
const lancedbVersion = JSON.parse(
  readFileSync(join(repo, "packages/index/node_modules/@lancedb/lancedb/package.json"), "utf8"),
).version;

/**
 * The corpus folder, copied once and kept while its file list and the LanceDB version are the
 * same (a stamp holds their hash); otherwise, or with NYZHI_BENCH_REBUILD, it is copied again and
 * its index dropped.
 */
function preparedCorpus(corpus, listed) {
  const folder = join(cache, corpus.id);
  const home = join(cache, `${corpus.id}-home`);
  const files = listed.slice(0, corpus.files);
  const stamp = createHash("sha256")
    .update(`${lancedbVersion}\n${files.join("\n")}`)
    .digest("hex");
  const stampPath = `${folder}.stamp`;
  const kept =
    !process.env.NYZHI_BENCH_REBUILD && existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp;
  if (!kept) {
    rmSync(folder, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    rmSync(`${folder}.build.json`, { force: true });
    for (const path of files) {
      const to = join(
        folder,
        path.replace(/^node_modules\/\.pnpm\//, "").replace(/\/node_modules\//g, "/nm/"),
      );
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(repo, path), to);
    }
    writeFileSync(stampPath, stamp);
  }
  return { folder, home };
}

function measure(corpus, folder, home) {
  const args = [measureScript, "scale", home, folder, ...(corpus.search ? ["--search"] : [])];
  const result = spawnSync(process.execPath, args, {
    encoding: "utf8",
    maxBuffer: 16 << 20,
    // The environment `nyz __index-process` gets from the app (glibc's malloc at 2 arenas).
    env: indexProcessEnv({ ...process.env, NYZHI_LOG: "silent" }),
  });
  if (result.status !== 0)
    throw new Error(`measure scale ${corpus.id} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  const figures = JSON.parse(result.stdout.trim().split("\n").pop());
  // The build figures of a kept index are those of the run that built it.
  const buildPath = `${folder}.build.json`;
  if (figures.buildMs !== undefined) {
    const build = {
      buildMs: figures.buildMs,
      buildPeakRssMb: figures.buildPeakRssMb,
      date: today(),
      load: load(),
    };
    writeFileSync(buildPath, JSON.stringify(build));
    return { ...figures, build };
  }
  const build = existsSync(buildPath) ? JSON.parse(readFileSync(buildPath, "utf8")) : undefined;
  return { ...figures, build };
}

const today = () => new Date().toISOString().slice(0, 10);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");
const met = (ok) => (ok ? "met" : "**not met**");

export async function run() {
  const loadBefore = load();
  const listed = sourceFiles();
  const results = {};
  for (const corpus of CORPORA) {
    const { folder, home } = preparedCorpus(corpus, listed);
    process.stderr.write(`index-scale: ${corpus.id} …\n`);
    results[corpus.id] = measure(corpus, folder, home);
  }
  const loadAfter = load();
  const files5k = results["files-5k"];
  const small = results["chunks-10k"];
  const large = results["chunks-100k"];
  const targets = {
    noChange: files5k.unchangedMs < 1000,
    oneFile: files5k.oneFileMs < 200,
    namedFile: files5k.namedFileMs < 200,
    memory: files5k.build?.buildPeakRssMb === undefined || files5k.build.buildPeakRssMb < 500,
    p50: large.p50Ms < 30,
    p95: large.p95Ms < 80,
  };
  const built = (entry) =>
    entry.build
      ? `${(entry.build.buildMs / 1000).toFixed(1)} s (${entry.build.date}, load ${entry.build.load})`
      : "not measured";
  const column = (entry) =>
    `${entry.chunks.toLocaleString("en-US")} chunks (${entry.files.toLocaleString("en-US")} files)`;
  const rows = [
    ["first build", built],
    ["no-change update (median of 3)", (entry) => `${entry.unchangedMs} ms (walk ${entry.walkMs} ms)`],
    ["one-file update, the project walked (median of 5)", (entry) => `${entry.oneFileMs} ms`],
    [
      "one-file update, the file named as the app's watcher does (median of 5)",
      (entry) => `${entry.namedFileMs} ms`,
    ],
    [
      `search p50 (${large.searches} searches, k = 10)`,
      (entry) => (entry.p50Ms === undefined ? "–" : `${entry.p50Ms} ms`),
    ],
    ["search p95", (entry) => (entry.p95Ms === undefined ? "–" : `${entry.p95Ms} ms`)],
    ["index process RSS at the end", (entry) => `${entry.rssMb} MB`],
    [
      "index process peak RSS while building",
      (entry) => (entry.build?.buildPeakRssMb ? `${entry.build.buildPeakRssMb} MB` : "–"),
    ],
  ];
  const entries = [files5k, small, large];
  const markdown = [
    `On linux/x64, Node ${process.version}, LanceDB ${lancedbVersion}, full-text only (no embedder). Load average (1 / 5 / 15 min) when the run started: ${loadBefore}; when it ended: ${loadAfter}, on ${cpus().length} cores: figures taken under load are not a verdict on the targets. Corpora: the first files of the sorted JavaScript/TypeScript under \`node_modules/.pnpm\`, copied; kept with their indexes in \`bench/index-scale/.cache/\` between runs (\`NYZHI_BENCH_REBUILD=1\` builds again). Each corpus is measured in its own process holding the index as \`nyz __index-process\` does; a one-file update appends a line to one file and puts it back after.`,
    `| measure | ${entries.map(column).join(" | ")} |\n| --- | ${entries.map(() => "---:").join(" | ")} |\n${rows.map(([label, cell]) => `| ${label} | ${entries.map(cell).join(" | ")} |`).join("\n")}`,
    `Targets: no-change re-index of ${files5k.files.toLocaleString("en-US")} files < 1 s: ${met(targets.noChange)}; one-file update < 200 ms: walked ${met(targets.oneFile)}, named ${met(targets.namedFile)}; peak RSS while indexing 5,000 files < 500 MB: ${met(targets.memory)}; at ${large.chunks.toLocaleString("en-US")} chunks search p50 < 30 ms: ${met(targets.p50)}, p95 < 80 ms: ${met(targets.p95)}.`,
  ].join("\n\n");
  return {
    title: "Code index at scale (`bench/index-scale`)",
    markdown,
    ok: Object.values(targets).every(Boolean),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { markdown } = await run();
  console.log(markdown);
}
