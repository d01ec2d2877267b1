// Adapter overhead: parts per second through each @nyzhi/provider adapter versus iterating the
// vendor SDK's raw stream (Gemini has no SDK here: its baseline is fetch + a minimal SSE split +
// JSON.parse). Same mock (in a child process), same run, same HTTP transport on both sides (the
// adapters' `nodeHttpFetch`, given to the raw SDK clients too), one long zero-delay response per
// request, interleaved repetitions, medians of main-thread CPU time. A second table compares the
// transports themselves. Needs a build first:
//   pnpm --filter @nyzhi/provider... build && pnpm --filter @nyzhi/mock-llm build
//   node bench/provider/run.mjs            (or through the root runner: pnpm bench provider)
// Writes bench/results/provider.md and exports run() → { title, markdown }.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CHUNKS = Number(process.env.BENCH_PROVIDER_CHUNKS ?? 20000);
const REPETITIONS = Number(process.env.BENCH_PROVIDER_REPETITIONS ?? 9);
const WARMUP = 2;
/** Issue #3: adapter overhead below 5 % (CPU, per part). */
const TARGET_PERCENT = 5;
const root = new URL("../../", import.meta.url);

async function load() {
  const provider = await import(new URL("packages/provider/dist/index.js", root).href);
  // The SDKs are dependencies of packages/provider only; resolve them from there.
  const require = createRequire(new URL("packages/provider/package.json", root));
  const importFrom = (name) => import(pathToFileURL(require.resolve(name)).href);
  const Anthropic = (await importFrom("@anthropic-ai/sdk")).default;
  const OpenAI = (await importFrom("openai")).default;
  return { provider, Anthropic, OpenAI };
}

const request = { messages: [{ role: "user", content: "stream a lot" }], maxTokens: 100_000 };

function adapters({ provider, Anthropic, OpenAI }, url) {
  const key = (providerId) => ({ type: "api-key", providerId, key: "bench", source: "env" });
  const anthropic = new Anthropic({
    apiKey: "bench",
    baseURL: url,
    maxRetries: 0,
    fetch: provider.nodeHttpFetch,
  });
  const openai = new OpenAI({
    apiKey: "bench",
    baseURL: `${url}/v1`,
    maxRetries: 0,
    fetch: provider.nodeHttpFetch,
  });
  const count = async (iterable) => {
    let n = 0;
    for await (const _ of iterable) n++;
    return n;
  };
  return [
    {
      name: "anthropic",
      model: provider.createLanguageModel({
        providerId: "anthropic",
        modelId: "m",
        credential: key("anthropic"),
        baseUrl: url,
      }),
      raw: async () =>
        count(
          await anthropic.messages.create({
            model: "m",
            max_tokens: 100_000,
            stream: true,
            messages: [{ role: "user", content: "stream a lot" }],
          }),
        ),
    },
    {
      name: "openai-chat",
      model: provider.createLanguageModel({
        providerId: "openai",
        modelId: "m",
        credential: key("openai"),
        baseUrl: `${url}/v1`,
      }),
      raw: async () =>
        count(
          await openai.chat.completions.create({
            model: "m",
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: "user", content: "stream a lot" }],
          }),
        ),
    },
    {
      name: "openai-responses",
      model: provider.createLanguageModel({
        providerId: "openai",
        modelId: "m",
        credential: key("openai"),
        config: { provider: { openai: { api_style: "openai-responses", base_url: `${url}/v1` } } },
      }),
      raw: async () =>
        count(
          await openai.responses.create({ model: "m", stream: true, store: false, input: "stream a lot" }),
        ),
    },
    {
      name: "gemini",
      model: provider.createLanguageModel({
        providerId: "gemini",
        modelId: "m",
        credential: key("gemini"),
        baseUrl: `${url}/v1beta`,
      }),
      raw: async () => count(rawGeminiStream(url, provider.nodeHttpFetch)),
    },
    {
      name: "groq (openai-compatible)",
      model: provider.createLanguageModel({
        providerId: "groq",
        modelId: "m",
        credential: key("groq"),
        env: { GROQ_BASE_URL: `${url}/v1` },
      }),
      raw: async () =>
        count(
          await openai.chat.completions.create({
            model: "m",
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: "user", content: "stream a lot" }],
          }),
        ),
    },
  ];
}

/** Wall time and this process's CPU time (user + system) for one response, ms. */
/**
 * Gemini's baseline, since no Gemini SDK is used here: what an SDK's stream does at minimum —
 * fetch, decode, split events on blank lines, JSON.parse, and yield each chunk.
 */
async function* rawGeminiStream(url, fetch) {
  const response = await fetch(`${url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": "bench" },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "stream a lot" }] }] }),
  });
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const data = buffer.slice(0, end).replace(/^data: /, "");
      buffer = buffer.slice(end + 2);
      yield JSON.parse(data);
      end = buffer.indexOf("\n\n");
    }
  }
}

async function timeOnce(fn, attempt = 1) {
  try {
    return await timeAttempt(fn);
  } catch (error) {
    // A keep-alive socket the server closed just as it was reused; neither side retries here.
    if (attempt >= 3 || (error?.code !== "network_error" && error?.name !== "APIConnectionError"))
      throw error;
    return timeOnce(fn, attempt + 1);
  }
}

/**
 * CPU time of this process's main thread in ms, from /proc (Linux; nanosecond resolution), or
 * undefined elsewhere. The main thread is where SDK, adapter and parsing run; the process-wide
 * figure also counts V8's background threads (concurrent GC, optimising compiler), which differ
 * from run to run and made the ratios swing by ±10 %.
 */
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

async function timeAttempt(fn) {
  const cpu = process.cpuUsage();
  const thread = mainThreadCpuMs();
  const started = process.hrtime.bigint();
  const items = await fn();
  const threadAfter = mainThreadCpuMs();
  const used = process.cpuUsage(cpu);
  return {
    ms: Number(process.hrtime.bigint() - started) / 1e6,
    cpuMs: thread === undefined ? (used.user + used.system) / 1000 : threadAfter - thread,
    items,
  };
}

/**
 * Starts the mock LLM (tools/mock-llm/dist/cli.js) in a child process, so the CPU time measured
 * here is the client's alone: SDK, adapter and parsing, not the server writing the stream.
 */
async function startMockProcess(scenario) {
  const directory = mkdtempSync(join(tmpdir(), "nyzhi-bench-provider-"));
  const file = join(directory, "scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  const cli = fileURLToPath(new URL("tools/mock-llm/dist/cli.js", root));
  const child = spawn(process.execPath, [cli, "--scenario", file, "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let output = "";
    child.once("exit", (code) => reject(new Error(`mock-llm exited with ${code}`)));
    child.stdout.on("data", (data) => {
      output += data;
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
  });
  return {
    url,
    close: async () => {
      child.removeAllListeners("exit");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function throughAdapter(model) {
  let n = 0;
  for await (const part of model.doStream(request)) {
    if (part.type === "error") throw part.error;
    n++;
  }
  return n;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function run() {
  const modules = await load();
  const text = Array.from({ length: CHUNKS }, (_, index) => `t${index} `);
  const mock = await startMockProcess({
    rules: [{ response: { text, usage: { inputTokens: 10, outputTokens: CHUNKS } } }],
  });
  const rows = [];
  let transport;
  try {
    const only = process.env.BENCH_PROVIDER_ONLY?.split(",");
    for (const adapter of adapters(modules, mock.url)) {
      if (only && !only.some((name) => adapter.name.startsWith(name))) continue;
      const raw = [];
      const wrapped = [];
      for (let index = 0; index < WARMUP + REPETITIONS; index++) {
        // Interleave, and alternate which goes first, so drift hits both sides alike.
        const pair =
          index % 2 === 0
            ? [await timeOnce(adapter.raw), await timeOnce(() => throughAdapter(adapter.model))]
            : [null, await timeOnce(() => throughAdapter(adapter.model))];
        if (index % 2 === 1) pair[0] = await timeOnce(adapter.raw);
        if (index < WARMUP) continue;
        raw.push(pair[0]);
        wrapped.push(pair[1]);
      }
      const rawCpu = median(raw.map((sample) => sample.cpuMs));
      const adapterCpu = median(wrapped.map((sample) => sample.cpuMs));
      const rawItems = raw[0].items;
      const adapterItems = wrapped[0].items;
      rows.push({
        name: adapter.name,
        rawItems,
        adapterItems,
        rawCpu,
        adapterCpu,
        rawRate: (rawItems / rawCpu) * 1000,
        adapterRate: (adapterItems / adapterCpu) * 1000,
        // Median of the per-pair ratios: each pair ran back to back, so load drift cancels out.
        overhead: (median(raw.map((sample, index) => wrapped[index].cpuMs / sample.cpuMs)) - 1) * 100,
        wallOverhead: (median(raw.map((sample, index) => wrapped[index].ms / sample.ms)) - 1) * 100,
      });
    }
    transport = await compareTransports(modules.provider.nodeHttpFetch, mock.url);
  } finally {
    await mock.close();
  }
  const markdown = render(rows, transport);
  const out = fileURLToPath(new URL("bench/results/provider.md", root));
  mkdirSync(fileURLToPath(new URL("bench/results/", root)), { recursive: true });
  writeFileSync(out, `# Provider adapter overhead\n\n${markdown}`);
  return {
    title: "Provider adapter overhead",
    markdown,
    ok: rows.every((row) => row.overhead < TARGET_PERCENT),
  };
}

/**
 * The transports alone: reading the same streamed body (Gemini's, CHUNKS events) to its end with
 * the built-in fetch (undici) and with nodeHttpFetch; main-thread CPU ms, medians.
 */
async function compareTransports(nodeHttpFetch, url) {
  const read = async (fetchImpl) => {
    const response = await fetchImpl(`${url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "bench" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "stream a lot" }] }] }),
    });
    let chunks = 0;
    for await (const _ of response.body) chunks++;
    return chunks;
  };
  const builtIn = [];
  const node = [];
  for (let index = 0; index < WARMUP + REPETITIONS; index++) {
    const pair = [await timeOnce(() => read(globalThis.fetch)), await timeOnce(() => read(nodeHttpFetch))];
    if (index < WARMUP) continue;
    builtIn.push(pair[0].cpuMs);
    node.push(pair[1].cpuMs);
  }
  return { builtIn: median(builtIn), node: median(node) };
}

function render(rows, transport) {
  const fixed = (value, digits = 0) =>
    value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const signed = (value) => `${value >= 0 ? "+" : ""}${fixed(value, 1)}%`;
  const lines = [
    `One streamed response of ${fixed(CHUNKS)} text chunks from the mock LLM (a child process, zero delay); ` +
      `median of ${REPETITIONS} interleaved runs after ${WARMUP} warm-ups; Node ${process.version}. ` +
      "Raw = iterating the vendor SDK's stream (Gemini, which has no SDK here: a minimal async generator doing fetch, " +
      "blank-line split and JSON.parse), over the same HTTP transport as the adapters (`nodeHttpFetch`). " +
      "CPU ms and rates are medians of the main thread's CPU time per response (client work only: the mock runs in " +
      "its own process, and V8's background threads are left out, as their share varied ±10 % from run to run); " +
      "overhead is the median of adapter/raw ratios of back-to-back pairs, in CPU time and, for reference, wall time " +
      "(more disturbed by other load on the machine). The SDK adapters send the request through the SDK and parse " +
      "the event stream themselves, so they can be faster than the SDK's own stream.",
    "",
    "| adapter | raw events | raw CPU ms | raw events/s | adapter parts | adapter CPU ms | adapter parts/s | overhead (CPU) | overhead (wall) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.name} | ${fixed(row.rawItems)} | ${fixed(row.rawCpu, 1)} | ${fixed(row.rawRate)} | ${fixed(row.adapterItems)} | ${fixed(row.adapterCpu, 1)} | ${fixed(row.adapterRate)} | ${signed(row.overhead)} | ${signed(row.wallOverhead)} |`,
    ),
    "",
  ];
  const worst = Math.max(...rows.map((row) => row.overhead));
  lines.push(
    `Target: adapter overhead below ${TARGET_PERCENT} % for every adapter — ${worst < TARGET_PERCENT ? "met" : "not met"} (highest ${signed(worst)}).`,
    "",
  );
  if (transport) {
    lines.push(
      `Transport alone, reading the same ${fixed(CHUNKS)}-event body to its end (main-thread CPU ms, medians): ` +
        `built-in fetch (undici) ${fixed(transport.builtIn, 1)}, \`nodeHttpFetch\` (node:http) ${fixed(transport.node, 1)}. ` +
        (transport.node > transport.builtIn
          ? `node:http costs more per streamed piece (about ${fixed(((transport.node - transport.builtIn) / CHUNKS) * 1000, 2)} µs), but `
          : `node:http costs less per streamed piece in this run (about ${fixed(((transport.builtIn - transport.node) / CHUNKS) * 1000, 2)} µs), and `) +
        "undici's WebAssembly HTTP parser is compiled at the first request and again, optimised, on a background thread " +
        "that a short `nyz exec` then waits for at exit (~70 ms, see the session benchmark).",
      "",
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { markdown } = await run();
  console.log(markdown);
}
