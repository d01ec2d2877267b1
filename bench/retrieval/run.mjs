// Retrieval bench on third-party code: 189 hand-judged queries over requests and click (Python,
// Debian packages) and axios and commander (JavaScript, npm), fetched and pinned by corpora.mjs.
// Scores `nyz index search` (full-text only unless NYZHI_BENCH_INDEX_CONFIG names an embedder),
// beside `rg` and beside the index before issue 31 (baseline.json).
//   pnpm bench retrieval                             runs it and records the table in docs/performance.md
//   node bench/retrieval/run.mjs                     the same table on stdout, nothing recorded
//   node bench/retrieval/run.mjs --record-baseline   stores this build's ranks as the "before" column
//   node bench/retrieval/run.mjs --mock-embeddings   hybrid through tools/mock-llm's embeddings endpoint
//     (hashed words, not a model: it measures the fusion's plumbing, not what a real model gains)
// With a model: NYZHI_BENCH_INDEX_CONFIG='{"embedding":"openai"}' OPENAI_API_KEY=… node bench/retrieval/run.mjs
// (any `[index]` settings: embedding, embedding_model, model_dir, embedding_base_url); a local
// model: NYZHI_BENCH_HOME=<a home whose data/index/runtime holds transformers.js>
// NYZHI_BENCH_INDEX_CONFIG='{"embedding":"local","embedding_model":"Xenova/all-MiniLM-L6-v2"}'.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema } from "../../packages/config/dist/index.js";
import { createIndex } from "../../packages/index/dist/index.js";
import { checkJudgements } from "./check-queries.mjs";
import { CACHE, CORPORA, prepareAll } from "./corpora.mjs";
import { figures, groups, rankOf } from "./judge.mjs";
import { hasRg, rgSearch } from "./rg-baseline.mjs";

const here = fileURLToPath(new URL("./", import.meta.url));
const baselinePath = join(here, "baseline.json");
const resultsPath = fileURLToPath(new URL("../results/retrieval.json", import.meta.url));
const set = JSON.parse(readFileSync(join(here, "queries.json"), "utf8"));
const key = (query) => `${query.corpus}|${query.q}`;

/** Builds one index per code base and returns, per query, its results in rank order. */
async function searchAll(projects, indexConfig) {
  // NYZHI_BENCH_HOME: a home of the user's own (where `npm install --prefix <home>/data/index/runtime
  // @huggingface/transformers` put transformers.js, or where the model cache is); kept afterwards.
  const home = process.env.NYZHI_BENCH_HOME ?? mkdtempSync(join(tmpdir(), "nyzhi-bench-retrieval-"));
  const config = configSchema.parse({ index: { embedding: "none", ...indexConfig } });
  const results = new Map();
  const built = {};
  const latencies = [];
  try {
    for (const corpus of CORPORA) {
      const index = createIndex({
        root: projects[corpus.id],
        env: { NYZHI_HOME: home, NYZHI_LOG: "silent", ...keysFromEnv() },
        config,
      });
      try {
        const started = performance.now();
        const update = await index.update();
        process.stderr.write(
          `retrieval: indexed ${corpus.id} in ${Math.round(performance.now() - started)} ms\n`,
        );
        const status = await index.status();
        built[corpus.id] = { files: update.files, chunks: update.chunks, embedder: status.embedder };
        for (const query of set.queries.filter((entry) => entry.corpus === corpus.id)) {
          const started = performance.now();
          const hits = await index.search(query.q, { k: 10 });
          latencies.push(performance.now() - started);
          results.set(
            key(query),
            hits.map((hit) => ({ path: hit.path, symbol: hit.symbol })),
          );
        }
      } finally {
        await index.close();
      }
    }
  } finally {
    if (!process.env.NYZHI_BENCH_HOME) rmSync(home, { recursive: true, force: true });
  }
  return { results, built, latencies };
}

/** API keys a user measuring their own embedder passes in the environment. */
function keysFromEnv() {
  const names = [
    "OPENAI_API_KEY",
    "VOYAGE_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "PERPLEXITY_API_KEY",
  ];
  return Object.fromEntries(
    names.filter((name) => process.env[name]).map((name) => [name, process.env[name]]),
  );
}

const cell = (value) => value.toFixed(3);

function table(queries, systems) {
  const head = `| queries | n | ${systems.map((system) => `${system.name} R@1 | R@5 | R@10 | MRR@10`).join(" | ")} |`;
  const rule = `| --- | ---: | ${systems.map(() => "---: | ---: | ---: | ---:").join(" | ")} |`;
  const rows = groups(queries, set.holdout).map(({ name, indexes }) => {
    const cells = systems.map((system) => {
      const scores = figures(indexes.map((index) => system.ranks[index]));
      return `${cell(scores.r1)} | ${cell(scores.r5)} | ${cell(scores.r10)} | ${cell(scores.mrr)}`;
    });
    return `| ${name} | ${indexes.length} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
}

export async function run() {
  const projects = await prepareAll();
  const check = await checkJudgements(set.queries, projects);
  if (check.errors.length > 0) throw new Error(`queries.json: ${check.errors.join("; ")}`);
  let indexConfig = process.env.NYZHI_BENCH_INDEX_CONFIG
    ? JSON.parse(process.env.NYZHI_BENCH_INDEX_CONFIG)
    : {};
  let mock;
  if (process.argv.includes("--mock-embeddings")) {
    const { startMockLlm } = await import("../../tools/mock-llm/dist/index.js");
    mock = await startMockLlm();
    indexConfig = {
      embedding: "openai",
      embedding_base_url: `${mock.url}/v1`,
      embedding_model: "text-embedding-3-small",
    };
    process.env.OPENAI_API_KEY ??= "mock-key";
  }
  const { results, built, latencies } = await searchAll(projects, indexConfig).finally(() => mock?.close());
  const queries = set.queries;
  const now = queries.map((query) => rankOf(query, results.get(key(query)) ?? []));
  const nowByFile = queries.map((query) => rankOf(query, results.get(key(query)) ?? [], { level: "file" }));
  const rgResults = hasRg() ? rgAll(queries, projects) : undefined;
  const rg = rgResults
    ? queries.map((query) => rankOf(query, rgResults.get(key(query)), { level: "file" }))
    : undefined;
  const baseline = readBaseline();
  const before = baseline ? queries.map((query) => baseline.ranks[key(query)] ?? undefined) : undefined;
  const beforeByFile = baseline
    ? queries.map((query) => baseline.fileRanks?.[key(query)] ?? undefined)
    : undefined;
  mkdirSync(join(resultsPath, ".."), { recursive: true });
  writeFileSync(
    resultsPath,
    JSON.stringify(
      queries.map((query, index) => ({
        ...query,
        rank: now[index] ?? null,
        rg: rg?.[index] ?? null,
        before: before?.[index] ?? null,
        results: results.get(key(query)),
      })),
      null,
      1,
    ),
  );
  if (process.argv.includes("--record-baseline")) {
    writeFileSync(
      baselinePath,
      `${JSON.stringify({ about: "Ranks of bench/retrieval's queries with the index as it was before issue 31 (full-text only), by `node bench/retrieval/run.mjs --record-baseline`.", commit: process.env.NYZHI_BASELINE_COMMIT ?? "", ranks: Object.fromEntries(queries.map((query, index) => [key(query), now[index] ?? null])), fileRanks: Object.fromEntries(queries.map((query, index) => [key(query), nowByFile[index] ?? null])) }, null, 1)}\n`,
    );
  }
  const embedder = Object.values(built)[0]?.embedder ?? "none";
  const systems = [
    { name: `nyz (${embedder === "none" || !embedder ? "full-text" : embedder})`, ranks: now },
    ...(before ? [{ name: "before", ranks: before }] : []),
    ...(rg ? [{ name: "rg", ranks: rg }] : []),
  ];
  const fileSystems = [
    { name: systems[0].name, ranks: nowByFile },
    ...(beforeByFile ? [{ name: "before", ranks: beforeByFile }] : []),
    ...(rg ? [{ name: "rg", ranks: rg }] : []),
  ];
  const overall = figures(now);
  const overallByFile = figures(nowByFile);
  const paraphrase = queries.flatMap((query, index) => (query.kind === "paraphrase" ? [index] : []));
  const paraphraseGain = rg
    ? figures(paraphrase.map((index) => nowByFile[index])).r5 -
      figures(paraphrase.map((index) => rg[index])).r5
    : Number.NaN;
  const targets = { recall: overall.r5 >= 0.8, mrr: overall.mrr >= 0.6, paraphrase: paraphraseGain >= 0.15 };
  const sorted = [...latencies].sort((left, right) => left - right);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const corporaLine = CORPORA.map(
    (corpus) =>
      `${corpus.source.name} ${corpus.source.version} (${corpus.source.registry}, ${corpus.language}; ${built[corpus.id].files} files, ${built[corpus.id].chunks} chunks)`,
  ).join(", ");
  const markdown = [
    `${queries.length} hand-judged queries (\`bench/retrieval/queries.json\`) over ${corporaLine}, fetched by \`bench/retrieval/corpora.mjs\` (pinned versions and checksums; doc comments stripped from the indexed copy). One index per code base; \`nyz index search\` with k = 10. A query is judged at the level it names: a symbol (the first result whose file and symbol match) or a file; \`rg\` cannot name a symbol, so it is judged by file (which favours it). R@k: share of queries answered within the first k distinct answers; MRR over the first 10. Held out: ${set.holdout.join(", ")} (not looked at while tuning). Search p50 ${p50.toFixed(1)} ms on these small indexes.`,
    table(queries, systems),
    "Every query judged by its file (the level `rg` answers at):",
    table(queries, fileSystems),
    `Targets (full-text), at the level each query names / by file: R@5 ≥ 0.80: ${cell(overall.r5)} ${targets.recall ? "met" : "**not met**"} / ${cell(overallByFile.r5)} ${overallByFile.r5 >= 0.8 ? "met" : "**not met**"}; MRR@10 ≥ 0.60: ${cell(overall.mrr)} ${targets.mrr ? "met" : "**not met**"} / ${cell(overallByFile.mrr)} ${overallByFile.mrr >= 0.6 ? "met" : "**not met**"}; paraphrase R@5 by file (the level rg answers at) at least 0.15 above rg's: ${Number.isNaN(paraphraseGain) ? "rg not found" : `${paraphraseGain >= 0 ? "+" : ""}${cell(paraphraseGain)}`} ${targets.paraphrase ? "met" : "**not met**"}.${check.warnings.length > 0 ? `\n\nParaphrases sharing a word with their answer's name (kept, as written before tuning): ${check.warnings.join("; ")}.` : ""}`,
  ].join("\n\n");
  return {
    title: "Retrieval on third-party code (`bench/retrieval`)",
    markdown,
    ok: Object.values(targets).every(Boolean),
  };
}

/** rg's answers, kept in .cache/rg-answers.json between runs (the code bases are pinned). */
function rgAll(queries, projects) {
  const path = join(CACHE, "rg-answers.json");
  let cache;
  try {
    cache = new Map(Object.entries(JSON.parse(readFileSync(path, "utf8"))));
  } catch {
    cache = new Map();
  }
  const answers = new Map(
    queries.map((query) => [key(query), rgSearch(projects[query.corpus], query.q, cache)]),
  );
  writeFileSync(path, JSON.stringify(Object.fromEntries(cache)));
  return answers;
}

function readBaseline() {
  try {
    return JSON.parse(readFileSync(baselinePath, "utf8"));
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { markdown } = await run();
  console.log(markdown);
}
