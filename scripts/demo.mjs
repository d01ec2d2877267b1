// The offline demo: the scripted mock model (tools/mock-llm, on 127.0.0.1, speaking Anthropic's
// wire format) plays a short session while the real `nyz` works in a copy of
// examples/demo/sample. The lead sends an explorer and a reviewer at the same time, then hands
// the fix to a worker through `task`; the worker's edit and test run ask for approval.
//
//   pnpm demo                 human-readable: each agent's lines tagged with its nickname, the
//                             approvals with the edit's diff, and a closing tree of agents with
//                             tokens and cost (approvals are answered by a permission_request hook,
//                             as nobody is there to answer them headless)
//   pnpm demo -- --json       the same run as JSONL (docs/json-events.md)
//   pnpm demo:app             the same script in the interactive app, where you answer approvals
//
// Builds first (quietly, one progress line) unless --no-build. Nothing leaves this machine; no
// API key is needed.
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createDemoRenderer } from "./demo/render-events.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2).filter((arg) => arg !== "--");
const json = args.includes("--json");
const app = args.includes("--app");
const prompt = "The test in this folder fails. Find out why and fix it.";
const AUTO_ANSWER_NOTE =
  "auto-answered: headless, nobody can answer, so the demo's permission_request hook allows it (in `pnpm demo:app` you answer)";

/** Runs the build with its output captured: one progress line, the log only when it fails. */
async function build() {
  const started = Date.now();
  const tty = process.stderr.isTTY;
  process.stderr.write("Building nyzhi (the first time takes a minute)…");
  const pnpm = process.env.npm_execpath;
  const [command, commandArgs] =
    pnpm?.endsWith(".cjs") || pnpm?.endsWith(".js") ? [process.execPath, [pnpm]] : ["pnpm", []];
  const child = spawn(
    command,
    [
      ...commandArgs,
      "turbo",
      "run",
      "build",
      "--filter=nyzhi...",
      "--filter=@nyzhi/mock-llm",
      "--output-logs=errors-only",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" },
  );
  let log = "";
  child.stdout.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr.on("data", (chunk) => {
    log += chunk;
  });
  const code = await new Promise((resolve) => child.on("close", resolve));
  if (code !== 0) {
    process.stderr.write(`\n${log}\nThe build failed (exit ${code}); the output is above.\n`);
    process.exit(1);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`${tty ? "\r" : " "}Built nyzhi in ${seconds} s.${" ".repeat(30)}\n`);
}

if (!args.includes("--no-build")) await build();

const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
const workspace = await mkdtemp(join(tmpdir(), "nyzhi-demo-"));
await cp(join(root, "examples/demo/sample"), workspace, { recursive: true });
const home = await mkdtemp(join(tmpdir(), "nyzhi-demo-home-"));
await mkdir(join(home, "config"), { recursive: true });
// The index stays off (nothing to search in three files); headless, a permission_request hook
// answers the approvals a person would (the app asks you instead).
const hook = `[[agent.hooks]]
event = "permission_request"
command = ${JSON.stringify(`"${process.execPath}" -e "process.stdout.write(JSON.stringify({decision:'allow',reason:'the demo allows it'}))"`)}
`;
await writeFile(join(home, "config", "config.toml"), `[index]\nenabled = false\n\n${app ? "" : hook}`);
const mock = await startMockLlm({ scenarioFile: join(root, "examples/demo/scenario.json") });
const env = {
  ...process.env,
  NYZHI_HOME: home,
  NYZHI_PROVIDER: "anthropic",
  ANTHROPIC_API_KEY: "offline-demo",
  ANTHROPIC_BASE_URL: `${mock.url}/v1`,
};
const nyz = join(root, "packages/cli/dist/nyz.cjs");

if (app) {
  process.stderr.write(
    `The app opens in a copy of examples/demo/sample (${workspace}), with the scripted mock model.\nThe prompt is sent at once; answer the worker's approvals (its edit shows as a diff); /quit when done.\n\n`,
  );
  const child = spawn(process.execPath, [nyz, prompt], { cwd: workspace, stdio: "inherit", env });
  const code = await new Promise((resolve) => child.on("close", resolve));
  await mock.close();
  process.exit(code ?? 1);
}

if (!json) {
  process.stderr.write(
    `\nworkspace   ${workspace} (a copy of examples/demo/sample)\nmodel       ${mock.url} (scripted mock, offline; no API key)\n\n$ nyz exec "${prompt}"\n\n`,
  );
}
const child = spawn(process.execPath, [nyz, "exec", "--json", prompt], {
  cwd: workspace,
  stdio: ["ignore", "pipe", "inherit"],
  env,
});
const renderer = createDemoRenderer({
  write: (text) => process.stdout.write(text),
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  autoAnswerNote: AUTO_ANSWER_NOTE,
});
for await (const line of createInterface({ input: child.stdout })) {
  if (json) {
    process.stdout.write(`${line}\n`);
    continue;
  }
  try {
    renderer.line(JSON.parse(line));
  } catch {
    process.stdout.write(`${line}\n`);
  }
}
const code = await new Promise((resolve) =>
  child.exitCode === null ? child.on("close", resolve) : resolve(child.exitCode),
);
await mock.close();
if (!json) {
  renderer.end();
  process.stdout.write(
    `\nnyz exited ${code}. Try it in the app, where you answer the approval: pnpm demo:app\n`,
  );
}
process.exitCode = code ?? 1;
