// The offline demo: the scripted mock model plays a short session while the real `nyz exec`
// reads, edits and runs a command in a copy of examples/demo/sample, streaming its JSONL events.
// Run with `pnpm demo` (builds first). Nothing leaves this machine; no API key is needed.
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));

const workspace = await mkdtemp(join(tmpdir(), "nyzhi-demo-"));
await cp(join(root, "examples/demo/sample"), workspace, { recursive: true });
const home = await mkdtemp(join(tmpdir(), "nyzhi-demo-home-"));
const mock = await startMockLlm({ scenarioFile: join(root, "examples/demo/scenario.json") });

const prompt = "The test in this folder fails. Find out why and fix it.";
process.stderr.write(
  `demo workspace: ${workspace}\nmock model:     ${mock.url} (scripted, offline)\n\n$ nyz exec --json --full-auto "${prompt}"\n\n`,
);
const child = spawn(
  process.execPath,
  [join(root, "packages/cli/dist/nyz.cjs"), "exec", "--json", "--full-auto", prompt],
  {
    cwd: workspace,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NYZHI_HOME: home,
      NYZHI_PROVIDER: "anthropic",
      ANTHROPIC_API_KEY: "offline-demo",
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    },
  },
);
const code = await new Promise((resolve) => child.on("close", resolve));
await mock.close();
process.stderr.write(
  `\nnyz exited ${code}. greet.js is now:\n\n${await readFile(join(workspace, "greet.js"), "utf8")}\n`,
);
process.exitCode = code ?? 1;
