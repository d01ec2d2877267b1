// The interactive app's benchmark: the built `nyz` in a real terminal (a tmux pane driven through
// a control-mode client, control-terminal.mjs) against the mock LLM. Measures launch to a ready
// input box, keypress-to-echo latency (and the harness floor: a trivial echo program measured the
// same way), Enter to the mock's answer on screen, idle memory, CPU, memory and frames while an
// answer streams at 200 chunks per second under a resumed 1,000-item transcript, and while eight
// subagents each stream 50 chunks per second, with the lead's echo measured during both.
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ControlTerminal } from "./control-terminal.mjs";
import { startMockWorker } from "./mock-worker.mjs";
import {
  appEnv,
  idleRss,
  launch,
  launchFloor,
  measureWindow,
  quit,
  sampleAnswers,
  sampleEcho,
  sleep,
} from "./phases.mjs";
import { indexProcessRssBytes } from "./process-stats.mjs";
import { writeSessionFixture } from "./session-fixture.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const LEAD = "You are Nizzy";
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
const ANSWER = "The answer is forty-two.";
const STREAM = { chunks: 4000, delayMs: 5 };
// 3,000 chunks at 20 ms: ~60 s of streaming, enough for the CPU window and 120 echo samples (~30 s).
const CHILDREN = { count: 8, chunks: 3000, delayMs: 20 };
/** Keys typed into the lead's input while the eight children stream (p95 is the 7th slowest). */
const FANOUT_ECHOES = 120;
const TRANSCRIPT_ITEMS = 1000;
/** The window over which an idle app's writes are counted, ms. */
const IDLE_WINDOW_MS = 5000;
/** How long the app is left idle before its settled memory is read, ms. */
const SETTLE_MS = 10_000;
const COLUMNS = 100;
const ROWS = 30;

function scenario() {
  const stream = Array.from({ length: STREAM.chunks }, (_, index) =>
    index === 0
      ? "STREAM-START "
      : index === STREAM.chunks - 1
        ? "STREAM-END"
        : index % 40 === 39
          ? `w${index}.\n\n`
          : `w${index} `,
  );
  const child = Array.from({ length: CHILDREN.chunks }, (_, index) => `c${index} `);
  return {
    rules: [
      { match: { system: LEAD, lastUser: "bench-answer" }, response: { text: ANSWER } },
      {
        match: { system: LEAD, lastUser: "bench-stream" },
        response: { text: stream, chunkDelayMs: STREAM.delayMs },
      },
      {
        match: { system: LEAD, lastUser: "bench-fanout", lastIsToolResult: false },
        response: {
          toolCalls: Array.from({ length: CHILDREN.count }, (_, index) => ({
            name: "task",
            arguments: { subagent_type: "general-purpose", description: `bench child ${index}` },
          })),
        },
      },
      {
        match: { system: LEAD, lastUser: "bench-fanout" },
        response: { text: "All eight children are done." },
      },
      {
        match: { system: NOT_LEAD, anyMessage: "bench child" },
        response: { text: child, chunkDelayMs: CHILDREN.delayMs },
      },
    ],
    fallback: { text: "bench" },
  };
}

const sorted = (values) => [...values].filter(Number.isFinite).sort((a, b) => a - b);
const quantile = (values, q) => {
  const list = sorted(values);
  return list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? Number.NaN;
};
const median = (values) => quantile(values, 0.5);
const ms = (value) => `${value.toFixed(value < 20 ? 1 : 0)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Only the named phases (`node bench/tui/run.mjs echo stream`), all by default. */
function wants(phase, only) {
  const wanted = only.length === 0 || only.includes(phase);
  if (wanted) process.stderr.write(`  bench tui: ${phase}\n`);
  return wanted;
}

/**
 * A copy of the built cli (`packages/cli/dist`) for this run, so a rebuild in the same checkout
 * while the bench runs (several minutes) cannot pull the files from under it. It sits in the
 * package's node_modules, where the bundles' external modules still resolve, and git ignores it.
 */
async function snapshotCli() {
  const directory = join(root, "packages/cli/node_modules", `.nyzhi-bench-${process.pid}`);
  // Another build's dist for an A/B comparison on the same machine and load: NYZHI_BENCH_CLI_DIST.
  await cp(process.env.NYZHI_BENCH_CLI_DIST ?? join(root, "packages/cli/dist"), directory, {
    recursive: true,
  });
  return { nyz: join(directory, "nyz.cjs"), remove: () => rm(directory, { recursive: true, force: true }) };
}

async function setUp() {
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-bench-tui-"));
  execFileSync("git", ["init", "-q"], { cwd: workspace });
  await writeFile(join(workspace, "notes.txt"), "line 0\nline 1\n");
  const home = await mkdtemp(join(tmpdir(), "nyzhi-bench-tui-home-"));
  return { workspace, home };
}

export async function run({ launches = 7, echoes = 150, answers = 12, only = [] } = {}) {
  const title = "Interactive app (`bench/tui`)";
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
  } catch {
    return { title, markdown: "Not measured: tmux is not installed.", ok: false };
  }
  const mock = await startMockWorker(join(root, "tools/mock-llm/dist/index.js"), scenario());
  const { workspace, home } = await setUp();
  const cli = await snapshotCli();
  const nyz = cli.nyz;
  const env = appEnv({ workspace, home, mockUrl: mock.url });
  const term = await ControlTerminal.start({ env, cwd: workspace, columns: COLUMNS, rows: ROWS });
  // The harness floor: a trivial echo program in a second terminal, typed into alternately with
  // the app, so both see the same load.
  const floor = await ControlTerminal.start({ env, cwd: workspace, columns: COLUMNS, rows: ROWS });
  const figures = { machine: `${process.platform}/${process.arch}, Node ${process.version}` };
  try {
    const starts = [];
    for (let index = 0; index < 5; index++) {
      if (index > 0) floor.keys("C-c");
      starts.push((await launchFloor(floor, { cwd: workspace })).readyMs);
    }
    figures.floorLaunchMs = median(starts);
    if (wants("launch", only)) {
      const runs = [];
      for (let index = 0; index <= launches; index++) {
        const opened = await launch(term, { nyz, cwd: workspace });
        const rss = await idleRss(opened.pid, 1500);
        const indexRss = await indexProcessRssBytes(opened.pid);
        await quit(term);
        if (index > 0) runs.push({ ...opened, rss, indexRss });
      }
      figures.drawnMs = median(runs.map((entry) => entry.drawnMs));
      figures.openMs = median(runs.map((entry) => entry.openMs));
      figures.idleRss = median(runs.map((entry) => entry.rss));
      figures.idleIndexRss = median(runs.map((entry) => entry.indexRss));
      // Settled: by then the session has built the project's code index in the background.
      const settled = await launch(term, { nyz, cwd: workspace });
      figures.settledRss = await idleRss(settled.pid, SETTLE_MS);
      figures.settledIndexRss = await indexProcessRssBytes(settled.pid);
      // A key typed: the code index starts (its child builds the project's index in the background).
      term.type("x");
      figures.typedRss = await idleRss(settled.pid, SETTLE_MS);
      figures.typedIndexRss = await indexProcessRssBytes(settled.pid);
      await quit(term);
      // The same in a project without an index, with the background index off (`index.auto = false`
      // in the global config).
      const config = join(home, "config", "config.toml");
      await mkdir(dirname(config), { recursive: true });
      await writeFile(config, "[index]\nauto = false\n");
      const fresh = await setUp();
      const withoutIndex = await launch(term, { nyz, cwd: fresh.workspace });
      figures.settledRssWithoutIndex = await idleRss(withoutIndex.pid, SETTLE_MS);
      figures.settledIndexRssWithoutIndex = await indexProcessRssBytes(withoutIndex.pid);
      await quit(term);
      await rm(config);
    }
    if (wants("echo", only) || wants("answer", only)) {
      const opened = await launch(term, { nyz, cwd: workspace });
      await sleep(1000);
      if (wants("echo", only)) {
        // Idle: the session open, nothing typed, no agent running.
        figures.idle = await measureWindow(term, opened.pid, IDLE_WINDOW_MS);
        const sampled = await sampleEcho([term, floor], { count: echoes, bytes: true });
        [figures.echo, figures.floorEcho] = sampled.times;
        [figures.echoBytes, figures.floorEchoBytes] = sampled.written;
      }
      if (wants("answer", only)) {
        figures.answers = await sampleAnswers(term, mock, {
          count: answers,
          prompt: "bench-answer",
          answer: ANSWER,
        });
      }
      await quit(term);
    }
    // A phase that fails (a loaded machine past a wait) is reported as not measured, the others kept.
    const attempt = async (phase, measure) => {
      try {
        return await measure();
      } catch (error) {
        figures.failed = [
          ...(figures.failed ?? []),
          `${phase}: ${String(error?.message ?? error).split("\n")[0]}`,
        ];
        await quit(term).catch(() => term.keys("C-c", "C-c"));
        return undefined;
      }
    };
    if (wants("stream", only))
      figures.stream = await attempt("stream", () =>
        streamPhase(term, floor, mock, { nyz, workspace, home }),
      );
    if (wants("fanout", only))
      figures.fanout = await attempt("fanout", () => fanoutPhase(term, floor, mock, { nyz, workspace }));
  } finally {
    await term.close();
    await floor.close();
    await mock.close();
    await cli.remove();
  }
  return report(title, figures);
}

/** Resumes a 1,000-item session, then streams a long answer at ~200 chunks/s. */
async function streamPhase(term, floor, mock, { nyz, workspace, home }) {
  const fixture = await writeSessionFixture({
    home,
    projectRoot: workspace,
    items: TRANSCRIPT_ITEMS,
    model: "claude-sonnet-4-6",
  });
  const launchedFrom = term.length;
  const started = performance.now();
  const opened = await launch(term, { nyz, cwd: workspace, args: ["-s", fixture.id] });
  const shownAt = await term.waitForText(`const section = ${fixture.turns}`, {
    from: launchedFrom,
    tail: undefined,
    timeoutMs: 120_000,
  });
  const rss = await idleRss(opened.pid, 1500);
  const from = term.length;
  const requestsBefore = (await mock.requests()).length;
  term.type("bench-stream");
  await term.waitForText("bench-stream", { from });
  term.keys("Enter");
  const ended = term.waitForText("STREAM-END", { from, timeoutMs: 180_000 });
  await term.waitForText("STREAM-START", { from, timeoutMs: 30_000 });
  await sleep(500);
  const window = await measureWindow(term, opened.pid, 5000);
  const [echo, floorEcho] = await sampleEcho([term, floor], { count: 40 });
  await ended;
  // The screen can show the last chunk before the mock records the response's end: ask again.
  let request;
  for (let attempt = 0; attempt < 20 && !request?.endedAt; attempt++) {
    if (attempt > 0) await sleep(100);
    request = (await mock.requests()).slice(requestsBefore).find((entry) => entry.lead);
  }
  const streamMs = request?.endedAt ? request.endedAt - request.startedAt : Number.NaN;
  await sleep(500);
  await quit(term);
  return {
    items: fixture.items,
    shownMs: shownAt - started,
    rss,
    window,
    echo,
    floorEcho,
    chunksPerSecond: (STREAM.chunks * 1000) / streamMs,
  };
}

/** Eight `task` subagents, each streaming at ~50 chunks/s, while the lead waits. */
async function fanoutPhase(term, floor, mock, { nyz, workspace }) {
  const opened = await launch(term, { nyz, cwd: workspace, args: ["--trust", "full"] });
  await sleep(1000);
  const from = term.length;
  const requestsBefore = (await mock.requests()).length;
  term.type("bench-fanout");
  await term.waitForText("bench-fanout", { from });
  term.keys("Enter");
  const ended = term.waitForText("All eight children are done.", { from, timeoutMs: 180_000 });
  const children = async () =>
    (await mock.requests()).slice(requestsBefore).filter((entry) => entry.rule !== undefined && !entry.lead);
  const started = Date.now();
  while ((await children()).length < CHILDREN.count) {
    if (Date.now() - started > 30_000) throw new Error(`only ${(await children()).length} children started`);
    await sleep(25);
  }
  await sleep(1000);
  const window = await measureWindow(term, opened.pid, 5000);
  const [echo, floorEcho] = await sampleEcho([term, floor], { count: FANOUT_ECHOES });
  const sampledUntil = Date.now();
  await ended;
  const streams = await children();
  const firstEnd = Math.min(...streams.map((entry) => entry.endedAt ?? Number.POSITIVE_INFINITY));
  if (sampledUntil > firstEnd)
    throw new Error("the echo samples outlasted the children's streams: raise CHILDREN.chunks");
  const perChild = streams.map(
    (entry) => (CHILDREN.chunks * 1000) / ((entry.endedAt ?? Number.NaN) - entry.startedAt),
  );
  await sleep(500);
  await quit(term);
  return { window, echo, floorEcho, chunksPerSecond: median(perChild) };
}

/**
 * Targets: issue 19 (launch, echo, answer, idle memory), issue 20 (eight streaming children) and
 * issue 27 (quiet and light: launch, echo, answer, bytes per key and at idle, memory with children).
 */
export const TARGETS = {
  drawnMs: 150,
  echoP50Ms: 5,
  echoP95Ms: 8,
  answerMs: 60,
  idleRssMb: 120,
  echoBytes: 150,
  idleBytesPerSecond: 0,
  fanoutEchoP95Ms: 16,
  fanoutFramesPerSecond: 30,
  fanoutCpuPercent: 30,
};

/** The app's code index runs in a child process (`nyz __index-process`): its RSS, apart from the app's. */
const INDEX_CHILD_RSS = "… and the code index's child process (`nyz __index-process`)";
const childMb = (bytes) => (Number.isFinite(bytes) ? mb(bytes) : "none running");

const latency = (times) => `${ms(quantile(times, 0.5))} / ${ms(quantile(times, 0.95))}`;

function report(title, figures) {
  const rows = [];
  const checks = [];
  const row = (measure, value, floor, target, met) => {
    rows.push(`| ${measure} | ${value} | ${floor} | ${target}${met === false ? " ✗" : met ? " ✓" : ""} |`);
    if (met !== undefined) checks.push(met);
  };
  if (figures.drawnMs !== undefined) {
    row(
      "launch → input box drawn (median)",
      ms(figures.drawnMs),
      `${ms(figures.floorLaunchMs)} (bare Node to first output)`,
      `≤ ${TARGETS.drawnMs} ms`,
      figures.drawnMs <= TARGETS.drawnMs,
    );
    row("launch → session open (model in the footer)", ms(figures.openMs), "", "", undefined);
    row("idle RSS, 1.5 s after open (median)", mb(figures.idleRss), "", "", undefined);
    row(INDEX_CHILD_RSS, childMb(figures.idleIndexRss), "", "", undefined);
    const withChild = figures.settledRss + (figures.settledIndexRss ?? 0);
    row(
      `idle RSS, ${SETTLE_MS / 1000} s after open, with its children (nothing typed: no index child)`,
      `${mb(withChild)} (app ${mb(figures.settledRss)}, index child ${childMb(figures.settledIndexRss)})`,
      "",
      `≤ ${TARGETS.idleRssMb} MB`,
      withChild / 1024 / 1024 <= TARGETS.idleRssMb,
    );
    row(
      `… ${SETTLE_MS / 1000} s after a first key typed: the index child (\`dist/index-process.cjs\`) has built the project's index`,
      `app ${mb(figures.typedRss)}, index child ${childMb(figures.typedIndexRss)}`,
      "",
      "",
      undefined,
    );
    row(
      `idle RSS, ${SETTLE_MS / 1000} s after open, with \`index.auto = false\``,
      mb(figures.settledRssWithoutIndex),
      "",
      "",
      undefined,
    );
    row(INDEX_CHILD_RSS, childMb(figures.settledIndexRssWithoutIndex), "", "", undefined);
  }
  if (figures.idle) {
    row(
      `bytes written per second at idle (session open, no agent running, ${IDLE_WINDOW_MS / 1000} s)`,
      `${figures.idle.bytesPerSecond.toFixed(0)} B/s`,
      "",
      `${TARGETS.idleBytesPerSecond} B/s`,
      figures.idle.bytesPerSecond <= TARGETS.idleBytesPerSecond,
    );
  }
  if (figures.echo) {
    const p50 = quantile(figures.echo, 0.5);
    const p95 = quantile(figures.echo, 0.95);
    row(
      `keypress → echo, idle (p50 / p95, ${figures.echo.length} keys)`,
      latency(figures.echo),
      latency(figures.floorEcho),
      `≤ ${TARGETS.echoP50Ms} / ≤ ${TARGETS.echoP95Ms} ms`,
      p50 <= TARGETS.echoP50Ms && p95 <= TARGETS.echoP95Ms,
    );
  }
  if (figures.echoBytes) {
    const bytes = median(figures.echoBytes);
    row(
      "bytes written to the terminal per echoed key (median; the first key of a line not counted)",
      `${bytes.toFixed(0)} B`,
      `${median(figures.floorEchoBytes).toFixed(0)} B`,
      `≤ ${TARGETS.echoBytes} B`,
      bytes <= TARGETS.echoBytes,
    );
  }
  if (figures.answers) {
    const answer = median(figures.answers.map((sample) => sample.answerMs));
    row(
      `Enter → answer on screen (median of ${figures.answers.length} turns)`,
      ms(answer),
      "",
      `≤ ${TARGETS.answerMs} ms`,
      answer <= TARGETS.answerMs,
    );
    row(
      "… of which Enter → request at the mock",
      ms(median(figures.answers.map((sample) => sample.toRequestMs))),
      "",
      "",
      undefined,
    );
    row(
      "… of which the mock's own time",
      ms(median(figures.answers.map((sample) => sample.mockMs))),
      "",
      "",
      undefined,
    );
    row(
      "… of which response end → on screen",
      ms(median(figures.answers.map((sample) => sample.fromEndMs))),
      "",
      "",
      undefined,
    );
    row("first turn of a session, Enter → answer", ms(figures.answers[0].answerMs), "", "", undefined);
  }
  const stream = figures.stream;
  if (stream) {
    row(
      `launch → a resumed ${stream.items}-item transcript on screen`,
      ms(stream.shownMs),
      "",
      "",
      undefined,
    );
    row(
      `RSS with the ${stream.items}-item transcript, idle (the code index in its child process)`,
      mb(stream.rss),
      "",
      "",
      undefined,
    );
    row(
      `streaming ${stream.chunksPerSecond.toFixed(0)} chunks/s over it: CPU (% of one core)`,
      `${stream.window.cpuPercent.toFixed(0)} %`,
      "",
      "",
      undefined,
    );
    row("… peak RSS", mb(stream.window.peakRss), "", "", undefined);
    row(
      "… frames / bytes written per second",
      `${stream.window.framesPerSecond.toFixed(0)} / ${(stream.window.bytesPerSecond / 1024).toFixed(0)} KB`,
      "",
      "",
      undefined,
    );
    row("… keypress → echo (p50 / p95)", latency(stream.echo), latency(stream.floorEcho), "", undefined);
  }
  const fanout = figures.fanout;
  if (fanout) {
    const { window } = fanout;
    const p95 = quantile(fanout.echo, 0.95);
    row(
      `8 subagents streaming ${fanout.chunksPerSecond.toFixed(0)} chunks/s each: CPU (% of one core)`,
      `${window.cpuPercent.toFixed(0)} %`,
      "",
      `< ${TARGETS.fanoutCpuPercent} %`,
      window.cpuPercent < TARGETS.fanoutCpuPercent,
    );
    row(
      "… frames per second",
      window.framesPerSecond.toFixed(0),
      "",
      `≤ ${TARGETS.fanoutFramesPerSecond}`,
      window.framesPerSecond <= TARGETS.fanoutFramesPerSecond + 1,
    );
    row(
      "… bytes written per second / peak RSS",
      `${(window.bytesPerSecond / 1024).toFixed(0)} KB / ${mb(window.peakRss)}`,
      "",
      "",
      undefined,
    );
    row(
      `… lead's keypress → echo (p50 / p95, ${fanout.echo.length} keys)`,
      latency(fanout.echo),
      latency(fanout.floorEcho),
      `p95 < ${TARGETS.fanoutEchoP95Ms} ms`,
      p95 < TARGETS.fanoutEchoP95Ms,
    );
  }
  for (const failure of figures.failed ?? []) row(`not measured (${failure})`, "", "", "", false);
  const markdown = [
    `The built \`nyz\` in a ${COLUMNS}×${ROWS} tmux pane, against the mock LLM (in a worker thread of the bench), on ${figures.machine}. Times run from the key (or the launch command) handed to tmux to the answering bytes reaching tmux, read through a tmux control-mode client (\`tmux -C\`, \`%output\`), not by polling the screen. **Harness floor**: the same measurement of a trivial echo program (bench/tui/echo-floor.mjs) in a second pane, typed into alternately with the app so both see the same load; subtract it to get nyz's own share. Keys are typed 60–120 ms apart. CPU is utime + stime from /proc/<pid>/stat over a 5 s window, RSS is /proc/<pid>/status VmRSS; frames are ink's synchronized-update marks (\`ESC[?2026h\`, one per frame) in the output.`,
    "",
    "| measure | nyz | harness floor | target |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
  ].join("\n");
  return { title, markdown, ok: checks.every(Boolean), figures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await run({ only: process.argv.slice(2) });
  console.log(markdown);
}
