// Code index benchmark: retrieval quality on this repository (queries.json) against an `rg`
// baseline; indexing throughput, no-change and one-file re-index on 5,000 source files; search
// latency at 100,000+ chunks. The corpus is the JavaScript and TypeScript under node_modules/.pnpm,
// copied to a temp folder (paths flattened so the walker's node_modules rule does not drop them).
// Each measurement runs in its own process (measure.mjs), so peak memory is the index's own.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const measureScript = fileURLToPath(new URL("./measure.mjs", import.meta.url));
/** Files copied for the latency corpus (enough for 100,000+ chunks). */
const CORPUS_FILES = 24_000;
const THROUGHPUT_FILES = 5_000;

function measure(args) {
  const result = spawnSync(process.execPath, [measureScript, ...args], {
    encoding: "utf8",
    maxBuffer: 16 << 20,
    env: { ...process.env, NYZHI_LOG: "silent" },
  });
  if (result.status !== 0)
    throw new Error(`measure ${args[0]} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  return JSON.parse(result.stdout.trim().split("\n").pop());
}

function buildCorpus(target, limit) {
  const listed = execFileSync(
    "find",
    [
      "node_modules/.pnpm",
      "-type",
      "f",
      "(",
      "-name",
      "*.ts",
      "-o",
      "-name",
      "*.js",
      "-o",
      "-name",
      "*.mjs",
      "-o",
      "-name",
      "*.cjs",
      "-o",
      "-name",
      "*.tsx",
      ")",
    ],
    { cwd: repo, encoding: "utf8", maxBuffer: 64 << 20 },
  )
    .split("\n")
    .filter((path) => path && !path.endsWith(".min.js"))
    .sort();
  const files = listed.slice(0, limit);
  for (const path of files) {
    const to = join(target, path.replace(/^node_modules\/\.pnpm\//, "").replace(/\/node_modules\//g, "/nm/"));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(repo, path), to);
  }
  return files.length;
}

const pct = (value) => `${(value * 100).toFixed(0)} %`;
const fixed = (value) => value.toFixed(2);

export async function run() {
  const work = mkdtempSync(join(tmpdir(), "nyzhi-bench-index-"));
  try {
    const quality = measure(["quality", join(work, "home-quality")]);
    const small = join(work, "corpus-5k");
    buildCorpus(small, THROUGHPUT_FILES);
    const throughput = measure(["throughput", join(work, "home-throughput"), small]);
    const corpus = join(work, "corpus");
    const copied = buildCorpus(corpus, CORPUS_FILES);
    const latency = measure(["latency", join(work, "home-latency"), corpus]);
    const targets = {
      noChange: throughput.unchangedMs < 1000,
      oneFile: throughput.oneFileMs < 200,
      p50: latency.p50Ms < 30,
      p95: latency.p95Ms < 80,
      memory: throughput.peakRssMb < 500,
    };
    const met = (ok) => (ok ? "met" : "**not met**");
    const kindRows = Object.entries(quality.byKind).map(
      ([kind, value]) =>
        `| ${kind} (${value.count}) | ${pct(value.index.recallAt5)} | ${fixed(value.index.mrr)} | ${pct(value.rg.recallAt5)} | ${fixed(value.rg.mrr)} |`,
    );
    const markdown = `On linux/x64, Node ${process.version}, ${quality.embedder === "none" ? "full-text (BM25) only: no embedder is available on this machine" : `embedder ${quality.embedder}`}.

**Retrieval quality** (\`bench/index/queries.json\`: ${quality.queries} queries over this repository, ${quality.files} files, ${quality.chunks} chunks). A query counts as found when its file is among the first 5 distinct files; MRR over the first 10. The \`rg\` baseline ranks files by how many of the query's words (3+ letters, stop words left out) they contain, then by matches.

| queries | index recall@5 | index MRR | rg recall@5 | rg MRR |
| --- | ---: | ---: | ---: | ---: |
| all (${quality.queries}) | ${pct(quality.index.recallAt5)} | ${fixed(quality.index.mrr)} | ${pct(quality.rg.recallAt5)} | ${fixed(quality.rg.mrr)} |
${kindRows.join("\n")}

Missed by the index (not in the first 5 files): ${quality.misses.length === 0 ? "none" : quality.misses.map((query) => `"${query}"`).join(", ")}.

**Indexing** ${throughput.files} files (${throughput.chunks} chunks; the first ${THROUGHPUT_FILES.toLocaleString("en-US")} JavaScript/TypeScript files under \`node_modules/.pnpm\`, copied), full-text only, in one process (LanceDB already loaded for the re-indexes; a \`nyz index\` process adds ~150 ms to load it when it writes):

| measure | value | target |
| --- | ---: | --- |
| first index | ${(throughput.durationMs / 1000).toFixed(1)} s: ${throughput.filesPerSecond} files/s, ${throughput.chunksPerSecond} chunks/s | |
| peak memory (RSS) while indexing | ${throughput.peakRssMb} MB | < 500 MB: ${met(targets.memory)} |
| no-change re-index (median of 3) | ${throughput.unchangedMs} ms | < 1 s: ${met(targets.noChange)} |
| one-file re-index (median of 5, ${throughput.oneFileIndexed} files re-indexed in all) | ${throughput.oneFileMs} ms, of which walking the project ~${throughput.walkMs} ms (median of 5 walks) | < 200 ms: ${met(targets.oneFile)} |

**Search latency** over ${latency.chunks} chunks (${latency.files} files of the same corpus, ${copied} copied; built in ${(latency.buildMs / 1000).toFixed(1)} s, peak ${latency.peakRssMb} MB), ${latency.searches} full-text searches (k = 10): p50 ${latency.p50Ms} ms (target < 30: ${met(targets.p50)}), p95 ${latency.p95Ms} ms (target < 80: ${met(targets.p95)}).`;
    return { title: "Code index (`bench/index`)", markdown, ok: Object.values(targets).every(Boolean) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
