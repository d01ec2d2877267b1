// Code index benchmark: retrieval quality on this repository (queries.json) against an `rg`
// baseline, and the indexing rate with the tiny local model on 5,000 source files (the JavaScript
// and TypeScript under node_modules/.pnpm, copied to a temp folder, paths flattened so the
// walker's node_modules rule does not drop them). The scale figures (no-change and one-file
// updates, search latency at 100,000+ chunks, memory) are bench/index-scale's.
// Each measurement runs in its own process (measure.mjs), so peak memory is the index's own.
// Where transformers.js and python3-onnx are found (as for the index's local-embedder test:
// NYZHI_TEST_TRANSFORMERS_DIR), the tiny ONNX model the tests build also gives the indexing rate
// with a local model and hybrid retrieval figures; otherwise the section says why they are missing.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  findTinyModelTools,
  linkTransformersRuntime,
  TINY_MODEL_ID,
  writeTinyModel,
} from "../../packages/index/dist/test-support/tiny-embedding-model.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const measureScript = fileURLToPath(new URL("./measure.mjs", import.meta.url));
const THROUGHPUT_FILES = 5_000;

/** Runs one measurement; `indexConfig` is merged into `[index]` (measure.mjs). */
function measure(args, indexConfig) {
  const result = spawnSync(process.execPath, [measureScript, ...args], {
    encoding: "utf8",
    maxBuffer: 16 << 20,
    env: {
      ...process.env,
      NYZHI_LOG: "silent",
      ...(indexConfig ? { NYZHI_BENCH_INDEX_CONFIG: JSON.stringify(indexConfig) } : {}),
    },
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

/**
 * The tiny local model for the bench (the one the tests build): its `[index]` settings and a
 * function that makes transformers.js findable from a home; or why it cannot run here.
 */
function tinyModel(work) {
  const tools = findTinyModelTools();
  if ("missing" in tools) return { missing: tools.missing };
  const models = join(work, "models");
  try {
    writeTinyModel(models, tools.python);
  } catch (error) {
    return { missing: `the tiny model could not be built (${String(error).split("\n")[0]})` };
  }
  return {
    config: { embedding: "local", embedding_model: TINY_MODEL_ID, model_dir: models },
    home: (path) => {
      linkTransformersRuntime(path, tools.transformers.nodeModules);
      return path;
    },
  };
}

const pct = (value) => `${(value * 100).toFixed(0)} %`;
const fixed = (value) => value.toFixed(2);

export async function run() {
  const work = mkdtempSync(join(tmpdir(), "nyzhi-bench-index-"));
  try {
    const tiny = tinyModel(work);
    const quality = measure(["quality", join(work, "home-quality")]);
    const hybrid = tiny.config
      ? measure(["quality", tiny.home(join(work, "home-quality-tiny")), "--no-rg"], tiny.config)
      : undefined;
    let local;
    if (tiny.config) {
      const small = join(work, "corpus-5k");
      buildCorpus(small, THROUGHPUT_FILES);
      local = measure(["build", tiny.home(join(work, "home-build-tiny")), small], tiny.config);
    }
    const markdown = [
      `On linux/x64, Node ${process.version}. ${embedderLine(hybrid, tiny)}`,
      qualitySection(quality, hybrid, tiny),
      indexingSection(local, tiny),
      "Scale (no-change and one-file updates on 5,000 files, search latency at 100,000+ chunks, memory): `pnpm bench index-scale`, below.",
    ].join("\n\n");
    return { title: "Code index (`bench/index`)", markdown };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function embedderLine(hybrid, tiny) {
  if (!hybrid) return `Full-text (BM25) only; the rows with a local model are not measured: ${tiny.missing}.`;
  return `Full-text rows use no embedder; hybrid and local-model rows use \`${hybrid.embedder}\`, the tiny ONNX model the index's tests build (11 words, 4 dimensions) run by transformers.js in a worker. **It is not a semantic model**: nearly every chunk gets the same vector, so its hybrid figures show what fusing a vector side costs, not what a real model gains.`;
}

function qualitySection(quality, hybrid, tiny) {
  const hybridHead = hybrid ? " hybrid recall@5 | hybrid MRR |" : "";
  const hybridRule = hybrid ? " ---: | ---: |" : "";
  const cells = (fullText, hybridScore, rg) =>
    `${pct(fullText.recallAt5)} | ${fixed(fullText.mrr)} |${hybridScore ? ` ${pct(hybridScore.recallAt5)} | ${fixed(hybridScore.mrr)} |` : ""} ${pct(rg.recallAt5)} | ${fixed(rg.mrr)} |`;
  const rows = [
    `| all (${quality.queries}) | ${cells(quality.index, hybrid?.index, quality.rg)}`,
    ...Object.entries(quality.byKind).map(
      ([kind, value]) =>
        `| ${kind} (${value.count}) | ${cells(value.index, hybrid?.byKind[kind]?.index, value.rg)}`,
    ),
  ];
  const missed = (misses) => (misses.length === 0 ? "none" : misses.map((query) => `"${query}"`).join(", "));
  return `**Retrieval quality** (\`bench/index/queries.json\`: ${quality.queries} queries over this repository, ${quality.files} files, ${quality.chunks} chunks). A query counts as found when its file is among the first 5 distinct files; MRR over the first 10. The \`rg\` baseline ranks files by how many of the query's words (3+ letters, stop words left out) they contain, then by matches.

| queries | full-text recall@5 | full-text MRR |${hybridHead} rg recall@5 | rg MRR |
| --- | ---: | ---: |${hybridRule} ---: | ---: |
${rows.join("\n")}

Missed by full-text (not in the first 5 files): ${missed(quality.misses)}.${hybrid ? ` Missed by hybrid: ${missed(hybrid.misses)}.` : ` Hybrid not measured: ${tiny.missing}.`}`;
}

function indexingSection(local, tiny) {
  if (!local) return `**Indexing with a local model** not measured: ${tiny.missing}.`;
  return `**Indexing with the tiny local model** (the first ${THROUGHPUT_FILES.toLocaleString("en-US")} JavaScript/TypeScript files under \`node_modules/.pnpm\`, copied; ${local.embedded} chunks embedded): ${(local.durationMs / 1000).toFixed(1)} s, ${local.filesPerSecond} files/s, ${local.chunksPerSecond} chunks/s; peak ${local.peakRssMb} MB.`;
}
