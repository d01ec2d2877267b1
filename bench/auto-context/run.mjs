// Auto-context benchmark: the retrieval set of bench/index (queries.json: queries over this
// repository, each with the file it should find) run through core's auto-context, the
// `<codebase_context>` block a user turn gets. A query counts as found when its file is one of
// the block's chunks. The index is this repository's, full-text only (what a machine without an
// embeddings key or local model gets), built in a temp NYZHI_HOME; each block is made as a turn
// makes it (`autoContextFragment` with `index.auto_context_tokens` and `index.auto_context_chunks`,
// the default 150 ms readiness and 1 s search limits, an empty conversation), after the index has
// been opened once (a session opens it at start). Also at half and double the token budget.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema } from "../../packages/config/dist/index.js";
import { autoContextFragment, CodeIndexService } from "../../packages/core/dist/index.js";
import { createIndex } from "../../packages/index/dist/index.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const queries = JSON.parse(readFileSync(new URL("../index/queries.json", import.meta.url), "utf8")).queries;

const percentile = (values, share) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const pct = (value) => `${(value * 100).toFixed(0)} %`;
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** The files of a block's chunks, in order. */
function blockFiles(text) {
  return [...text.matchAll(/<chunk file="([^"]*)"/g)].map((match) =>
    match[1].replace(/&quot;/g, '"').replace(/&amp;/g, "&"),
  );
}

/** Each query through auto-context at `budgetTokens`: found or not, the block's size and time. */
async function measure(service, config, budgetTokens) {
  const rows = [];
  for (const entry of queries) {
    const started = performance.now();
    const fragment = await autoContextFragment(service, {
      query: entry.query,
      thread: [],
      budgetTokens,
      maxChunks: config.index.auto_context_chunks,
    });
    const ms = performance.now() - started;
    const files = blockFiles(fragment.text);
    rows.push({
      entry,
      found: files.includes(entry.file),
      empty: fragment.text === "",
      chunks: files.length,
      files: new Set(files).size,
      tokens: Math.ceil(fragment.text.length / 4),
      ms,
    });
  }
  return rows;
}

function summary(rows) {
  return {
    share: rows.filter((row) => row.found).length / rows.length,
    chunks: mean(rows.map((row) => row.chunks)),
    files: mean(rows.map((row) => row.files)),
    tokens: mean(rows.map((row) => row.tokens)),
    empty: rows.filter((row) => row.empty).length,
  };
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), "nyzhi-bench-auto-context-"));
  const env = { NYZHI_HOME: home, NYZHI_LOG: "silent" };
  const config = configSchema.parse({ index: { embedding: "none" } });
  try {
    const index = createIndex({ root: repo, env, config });
    const built = await index.update();
    await index.close();
    const service = new CodeIndexService({ root: repo, env, config, watch: false });
    if (!(await service.ready())) throw new Error("the index of this repository did not open");
    const budget = config.index.auto_context_tokens;
    const byBudget = [];
    for (const tokens of [budget / 2, budget, budget * 2]) {
      byBudget.push({ tokens, rows: await measure(service, config, tokens) });
    }
    await service.close();

    const main = byBudget.find((entry) => entry.tokens === budget).rows;
    const overall = summary(main);
    const kinds = [...new Set(queries.map((entry) => entry.kind))];
    const kindRows = kinds.map((kind) => {
      const rows = main.filter((row) => row.entry.kind === kind);
      return `| ${kind} (${rows.length}) | ${pct(summary(rows).share)} |`;
    });
    const budgetRows = byBudget.map(({ tokens, rows }) => {
      const figures = summary(rows);
      return `| ${tokens.toLocaleString("en-US")}${tokens === budget ? " (default)" : ""} | ${pct(figures.share)} | ${figures.chunks.toFixed(1)} | ${figures.files.toFixed(1)} | ${Math.round(figures.tokens)} |`;
    });
    const times = main.map((row) => row.ms);
    const misses = main.filter((row) => !row.found).map((row) => `"${row.entry.query}" (${row.entry.file})`);
    const markdown = `On linux/x64, Node ${process.version}; the index of this repository (${built.files} files, ${built.chunks} chunks), full-text (BM25) only.

**Share of the ${queries.length} queries of \`bench/index/queries.json\` whose expected file is in the injected \`<codebase_context>\` block**, with the default budget (\`index.auto_context_tokens\` = ${budget.toLocaleString("en-US")}, at most \`index.auto_context_chunks\` = ${config.index.auto_context_chunks} chunks): **${pct(overall.share)}** (${main.filter((row) => row.found).length} of ${main.length}; ${overall.empty} empty blocks).

| queries | file in the block |
| --- | ---: |
| all (${main.length}) | ${pct(overall.share)} |
${kindRows.join("\n")}

| budget (tokens) | file in the block | chunks per block | distinct files | block size (tokens, 4 chars each) |
| ---: | ---: | ---: | ---: | ---: |
${budgetRows.join("\n")}

Time to make a block (index open, default budget): p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, the slowest ${Math.max(...times).toFixed(1)} ms (a turn waits at most 150 ms for the index to be ready and 1 s for the search).

Not in the block at the default budget: ${misses.length === 0 ? "none" : misses.join(", ")}.`;
    return { title: "Auto-context (`bench/auto-context`)", markdown };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
