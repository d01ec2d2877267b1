// The measurements of bench/tui, each on a ControlTerminal running the built `nyz` against the
// mock LLM. Times are from the moment the bench hands tmux a key (or the command) to the moment
// the answering bytes reach tmux; see control-terminal.mjs.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripAnsi } from "./control-terminal.mjs";
import { rssBytes, sampleProcess } from "./process-stats.mjs";

const ECHO_FLOOR = fileURLToPath(new URL("./echo-floor.mjs", import.meta.url));
/** The input box's placeholder: the app is drawn and takes keys. */
export const READY = "Ask anything";
/** The footer names the model (`… · trust off` until the session is open). */
const SESSION_OPEN = /[\w.-]+ · trust \w+/;
/** The idle footer's hints (a turn's footer says "esc interrupt"). */
const IDLE = "enter send";
/** Typed for echo samples: letters no prompt of the bench or the app's chrome starts a word with. */
const TYPED = "zqxjkvbpwf";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `nyz args` (the bin at `nyz`) in the pane; resolves once its session is open. */
export async function launch(term, { nyz, cwd, args = [] }) {
  const from = term.length;
  const startedAt = performance.now();
  // Profiling the app under the bench: NYZHI_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p".
  const nodeArgs = process.env.NYZHI_BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  term.respawn([process.execPath, ...nodeArgs, nyz, ...args], cwd);
  const drawnAt = await term.waitForText(READY, { from, timeoutMs: 30_000 });
  const openAt = await term.waitFor((text) => SESSION_OPEN.test(text), { from, timeoutMs: 30_000 });
  return { pid: await term.panePid(), drawnMs: drawnAt - startedAt, openMs: openAt - startedAt };
}

/** Quits the app (`/exit`) and waits for its process to end. */
export async function quit(term) {
  term.keys("C-u");
  await sleep(150);
  term.type("/exit");
  await sleep(100);
  term.keys("Enter");
  const started = Date.now();
  while (!(await term.paneDead())) {
    if (Date.now() - started > 15_000) throw new Error("nyz did not exit after /exit");
    await sleep(50);
  }
}

/** Time from launch to the echo program's first output: Node's start-up in this pane. */
export async function launchFloor(term, { cwd }) {
  const from = term.length;
  const startedAt = performance.now();
  term.respawn([process.execPath, ECHO_FLOOR], cwd);
  const readyAt = await term.waitForText("READY", { from });
  return { pid: await term.panePid(), readyMs: readyAt - startedAt };
}

/**
 * Keypress-to-echo latency: `count` letters typed one at a time into each terminal of `terms`,
 * alternating between them (so the app and the harness floor share the machine's load), `gapMs`
 * apart (random in the range, like a fast typist), each timed from the key handed to tmux to the
 * prompt line showing it (`› ` and everything typed so far). Ctrl+U clears the line every 40.
 * Resolves with one list of times (ms) per terminal.
 */
export async function sampleEcho(terms, { count, gapMs = [60, 120], bytes } = {}) {
  const list = Array.isArray(terms) ? terms : [terms];
  const times = list.map(() => []);
  const written = list.map(() => []);
  const typed = list.map(() => "");
  for (let index = 0; index < count; index++) {
    for (const [which, term] of list.entries()) {
      if (typed[which].length >= 40) {
        const from = term.length;
        term.keys("C-u");
        await term.waitForText(READY, { from, timeoutMs: 10_000 }).catch(() => sleep(200));
        typed[which] = "";
      }
      typed[which] += TYPED[index % TYPED.length];
      const from = term.length;
      const bytesBefore = term.bytes;
      const sentAt = performance.now();
      term.type(typed[which].at(-1));
      const shownAt = await term.waitFor(echoed(typed[which]), {
        from,
        timeoutMs: 10_000,
        plain: false,
        tail: 4096,
      });
      times[which].push(shownAt - sentAt);
      await sleep(gapMs[0] + Math.random() * (gapMs[1] - gapMs[0]));
      // Everything written from the key to the next one (the first key of a line also recolours
      // the box and shows the footer's hints).
      if (typed[which].length > 1) written[which].push(term.bytes - bytesBefore);
    }
  }
  for (const term of list) term.keys("C-u");
  await sleep(200);
  if (bytes) return Array.isArray(terms) ? { times, written } : { times: times[0], written: written[0] };
  return Array.isArray(terms) ? times : times[0];
}

/**
 * Enter to the answer on screen, `count` turns: the prompt is typed, then Enter is timed to the
 * first bytes of the mock's answer in the terminal. Each sample also splits the time at the mock:
 * Enter → the request arrives, the mock's own time, the response's end → on screen.
 */
export async function sampleAnswers(term, mock, { count, prompt, answer }) {
  const samples = [];
  for (let index = 0; index < count; index++) {
    const typedFrom = term.length;
    term.type(prompt);
    await term.waitForText(prompt, { from: typedFrom });
    await sleep(300);
    const from = term.length;
    const requestsBefore = (await mock.requests()).length;
    const sentAt = performance.now();
    term.keys("Enter");
    const shownAt = await term.waitForText(answer, { from });
    await waitForScreen(term, IDLE);
    const request = (await mock.requests())
      .slice(requestsBefore)
      .find((candidate) => candidate.rule !== undefined && candidate.lead);
    const epoch = (at) => performance.timeOrigin + at;
    samples.push({
      answerMs: shownAt - sentAt,
      toRequestMs: request ? request.startedAt - epoch(sentAt) : Number.NaN,
      mockMs: request?.endedAt ? request.endedAt - request.startedAt : Number.NaN,
      fromEndMs: request?.endedAt ? epoch(shownAt) - request.endedAt : Number.NaN,
    });
    await sleep(300);
  }
  return samples;
}

/**
 * Waits until the pane's screen shows `text` (polled): for what the app writes as a change of a
 * few cells (the footer's hints going back to idle), which the output stream holds only in part.
 */
async function waitForScreen(term, text, timeoutMs = 20_000) {
  const started = Date.now();
  while (!(await term.screen()).includes(text)) {
    if (Date.now() - started > timeoutMs) throw new Error(`the screen did not show ${text}`);
    await sleep(50);
  }
}

/**
 * Whether the output since the key shows it typed: the prompt line drawn whole (`› ` and the text:
 * the harness floor, a frame written whole), or the app's frame writer putting the typed character
 * in front of the input's cursor (an inverse-video cell), which is all a key's echo writes.
 */
function echoed(typed) {
  const line = `› ${typed}`;
  const cell = `${typed.at(-1)}\x1b[7m`;
  return (raw) => raw.includes(cell) || stripAnsi(raw).includes(line);
}

/** CPU, peak RSS, frames (synchronized-update marks) and bytes written by `pid` over `ms`. */
export async function measureWindow(term, pid, ms) {
  const frames = term.frames;
  const bytes = term.bytes;
  const sampler = await sampleProcess(pid);
  await sleep(ms);
  const { cpuPercent, peakRss, wallMs } = await sampler.stop();
  return {
    cpuPercent,
    peakRss,
    framesPerSecond: ((term.frames - frames) * 1000) / wallMs,
    bytesPerSecond: ((term.bytes - bytes) * 1000) / wallMs,
  };
}

export async function idleRss(pid, settleMs = 1000) {
  await sleep(settleMs);
  return rssBytes(pid);
}

export { stripAnsi };

/**
 * The environment the app runs in under the benches: a clean PATH and terminal, nyzhi's home and
 * code cache in `home` (one cache for every launch, as a user's after their first run), the mock
 * as the Anthropic endpoint, file credentials; `extra` adds or overrides (e.g. NYZHI_TRACE_START).
 */
export function appEnv({ workspace, home, mockUrl }, extra = {}) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: workspace,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    NYZHI_HOME: home,
    NYZHI_CACHE_DIR: join(home, "cache"),
    NYZHI_LOG: "silent",
    NYZHI_PROVIDER: "anthropic",
    ANTHROPIC_API_KEY: "bench",
    ANTHROPIC_BASE_URL: `${mockUrl}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
    ...extra,
  };
}
