// One measurement of the code index, run in its own process (so its peak memory is its own):
//   node measure.mjs quality   <home> [--no-rg]       recall@5 and MRR of the queries, index vs rg
//   node measure.mjs scale     <home> <corpus> [--search]  build (when not built), no-change and one-file
//                                                    updates, search p50/p95, memory
//   node measure.mjs build     <home> <corpus>        index the corpus once: rate and peak memory
// Prints one JSON object on stdout. NYZHI_BENCH_INDEX_CONFIG (JSON) is merged into `[index]`,
// e.g. {"embedding":"local","model_dir":"…","embedding_model":"…"} for a hybrid run.
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configSchema } from "../../packages/config/dist/index.js";
import { createIndex, indexExclusions, indexLocation, walkProject } from "../../packages/index/dist/index.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const [mode, home, corpus] = process.argv.slice(2);
const env = { NYZHI_HOME: home, NYZHI_LOG: "silent" };
const extra = process.env.NYZHI_BENCH_INDEX_CONFIG ? JSON.parse(process.env.NYZHI_BENCH_INDEX_CONFIG) : {};
const config = configSchema.parse({ index: { embedding: "none", ...extra } });
const queries = JSON.parse(readFileSync(new URL("./queries.json", import.meta.url), "utf8")).queries;
const STOPWORDS = new Set(
  "the a an and or of to in on for is are be by with from that this it its as at how does do what which where when why into out".split(
    " ",
  ),
);

const percentile = (values, share) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** The rank (1-based) of `file` among the distinct files of `paths`, or undefined. */
function fileRank(paths, file) {
  const files = [...new Set(paths)];
  const position = files.indexOf(file);
  return position < 0 ? undefined : position + 1;
}

function score(ranks) {
  const found = ranks.filter((rank) => rank !== undefined && rank <= 5).length;
  const reciprocal = ranks.reduce((sum, rank) => sum + (rank === undefined || rank > 10 ? 0 : 1 / rank), 0);
  return { recallAt5: found / ranks.length, mrr: reciprocal / ranks.length };
}

/** rg baseline: files ranked by how many of the query's words they contain, then by matches. */
function rgRank(query, file) {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^a-z0-9_]+/)
        .filter((word) => word.length >= 3 && !STOPWORDS.has(word)),
    ),
  ];
  const perFile = new Map();
  for (const word of words) {
    const result = spawnSync("rg", ["--count-matches", "-i", "-F", word, "--", "."], {
      cwd: repo,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    for (const line of result.stdout.split("\n")) {
      const at = line.lastIndexOf(":");
      if (at < 0) continue;
      const path = line.slice(0, at).replace(/^\.\//, "");
      const entry = perFile.get(path) ?? { words: 0, matches: 0 };
      entry.words++;
      entry.matches += Number(line.slice(at + 1));
      perFile.set(path, entry);
    }
  }
  const ranked = [...perFile.entries()].sort(
    (left, right) => right[1].words - left[1].words || right[1].matches - left[1].matches,
  );
  return fileRank(
    ranked.slice(0, 10).map(([path]) => path),
    file,
  );
}

async function quality() {
  const withRg = process.argv[4] !== "--no-rg";
  const index = createIndex({ root: repo, env, config });
  const built = await index.update();
  const status = await index.status();
  const rows = { index: [], rg: [] };
  const byKind = {};
  for (const entry of queries) {
    const results = await index.search(entry.query, { k: 10 });
    const rank = fileRank(
      results.map((result) => result.path),
      entry.file,
    );
    const rgResult = withRg ? rgRank(entry.query, entry.file) : undefined;
    rows.index.push(rank);
    rows.rg.push(rgResult);
    byKind[entry.kind] ??= { index: [], rg: [] };
    byKind[entry.kind].index.push(rank);
    byKind[entry.kind].rg.push(rgResult);
  }
  await index.close();
  return {
    embedder: status.builtWith,
    files: built.files,
    chunks: built.chunks,
    queries: queries.length,
    index: score(rows.index),
    rg: withRg ? score(rows.rg) : undefined,
    byKind: Object.fromEntries(
      Object.entries(byKind).map(([kind, value]) => [
        kind,
        { count: value.index.length, index: score(value.index), rg: withRg ? score(value.rg) : undefined },
      ]),
    ),
    misses: queries
      .filter((_, position) => rows.index[position] === undefined || rows.index[position] > 5)
      .map((entry) => entry.query),
  };
}

async function build() {
  const index = createIndex({ root: corpus, env, config });
  const first = await index.update();
  const status = await index.status();
  await index.close();
  return {
    embedder: status.builtWith,
    files: first.files,
    chunks: first.chunks,
    embedded: first.embedded,
    durationMs: first.durationMs,
    filesPerSecond: Math.round((first.files * 1000) / first.durationMs),
    chunksPerSecond: Math.round((first.chunks * 1000) / first.durationMs),
    peakRssMb: maxRssMb(),
  };
}

/**
 * The measures of the scale targets on a copied corpus, whose index may already be built
 * (bench/index-scale keeps corpora and indexes between runs): the first build when there was
 * none, full-text search p50/p95 (`--search`), no-change updates (median of 3; the walk as an
 * update makes it, median of 5), one-file updates (median of 5: a line appended to one file, then
 * the file put back as it was and indexed again, not measured, so a kept corpus and its index stay
 * as they were; then the same with the file named, as the app's watcher updates), and this process's
 * memory: it holds the index as `nyz __index-process` does (RSS after the searches, peak while
 * building).
 */
async function scale() {
  const index = createIndex({ root: corpus, env, config });
  const first = await index.update();
  const built = first.indexed > 0 ? first : undefined;
  const buildPeakMb = maxRssMb();
  const unchanged = [];
  for (let round = 0; round < 3; round++) unchanged.push((await index.update()).durationMs);
  const samples = process.argv.includes("--search") ? await searchTimes(index) : [];
  const files = (await walkProject(corpus)).files;
  const oneFile = [];
  for (let round = 0; round < 5; round++) {
    const path = files[Math.floor(((round + 1) * files.length) / 7)].absolutePath;
    const original = readFileSync(path);
    appendFileSync(path, `\nexport const benchEdit${round} = 1;\n`);
    try {
      oneFile.push((await index.update()).durationMs);
    } finally {
      writeFileSync(path, original);
    }
    await index.update(); // the put-back file, not measured
  }
  // The same edit as the app makes it: its file watcher (or its own write) names the file.
  const namedFile = [];
  for (let round = 0; round < 5; round++) {
    const path = files[Math.floor(((round + 1) * files.length) / 7)].absolutePath;
    const original = readFileSync(path);
    appendFileSync(path, `\nexport const benchEdit${round} = 1;\n`);
    try {
      namedFile.push((await index.update({ paths: [path] })).durationMs);
    } finally {
      writeFileSync(path, original);
    }
    await index.update({ paths: [path] });
  }
  const walks = await walkTimes();
  const rssMb = Math.round(process.memoryUsage().rss / (1 << 20));
  await index.close();
  return {
    files: first.files,
    chunks: first.chunks,
    buildMs: built?.durationMs,
    buildPeakRssMb: built ? buildPeakMb : undefined,
    unchangedMs: percentile(unchanged, 0.5),
    oneFileMs: percentile(oneFile, 0.5),
    namedFileMs: percentile(namedFile, 0.5),
    walkMs: Math.round(percentile(walks, 0.5)),
    searches: samples.length,
    p50Ms: samples.length > 0 ? Number(percentile(samples, 0.5).toFixed(1)) : undefined,
    p95Ms: samples.length > 0 ? Number(percentile(samples, 0.95).toFixed(1)) : undefined,
    rssMb,
    peakRssMb: maxRssMb(),
  };
}

/** The walk as an update makes it (the same exclusions; files the manifest holds unchanged are known text), 5 times. */
async function walkTimes() {
  const manifest = JSON.parse(readFileSync(indexLocation(corpus, env).manifestPath, "utf8"));
  const knownText = (path, size, mtimeMs) =>
    manifest.files[path]?.size === size && manifest.files[path]?.mtimeMs === mtimeMs;
  const walks = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    await walkProject(corpus, { exclude: indexExclusions(config), knownText });
    walks.push(performance.now() - started);
  }
  return walks;
}

/** Search latencies: 17 queries (names, words, questions), once to warm, then 12 rounds, k = 10. */
async function searchTimes(index) {
  const words = [
    "parse",
    "config",
    "stream",
    "buffer",
    "promise resolve",
    "readFile",
    "http request headers",
    "createElement",
    "visitNode",
    "token",
    "error handling",
    "array map filter",
    "EventEmitter",
    "schema validate",
    "async iterator",
    "where are redirects followed",
    "how is the cache invalidated when a file changes",
  ];
  for (const word of words) await index.search(word);
  const samples = [];
  for (let round = 0; round < 12; round++) {
    for (const word of words) {
      const started = performance.now();
      await index.search(word, { k: 10 });
      samples.push(performance.now() - started);
    }
  }
  return samples;
}

const modes = { quality, build, scale };
process.stdout.write(`${JSON.stringify(await modes[mode]())}\n`);
