// Start-up benchmark: `nyz --version` and `nyz --help` against bare `node -e 0`, same machine,
// same run, interleaved so drift in machine load hits all three alike. Reports medians and ratios.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const nyz = fileURLToPath(new URL("../../packages/cli/dist/nyz.cjs", import.meta.url));

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NYZHI_LOG: "silent" },
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function run({ runs = 21 } = {}) {
  if (!existsSync(nyz)) throw new Error(`${nyz} is missing: run \`pnpm build\` first`);
  const cases = {
    "node -e 0": ["-e", "0"],
    "nyz --version": [nyz, "--version"],
    "nyz --help": [nyz, "--help"],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (const args of Object.values(cases)) timeOnce(args); // warm the file cache
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(cases)) samples[name].push(timeOnce(args));
  }
  const base = median(samples["node -e 0"]);
  const rows = Object.entries(samples).map(([name, values]) => {
    const value = median(values);
    return { name, median: value, ratio: value / base };
  });
  const versionRatio = rows.find((row) => row.name === "nyz --version").ratio;
  const markdown = [
    `Median of ${runs} runs each, interleaved, on ${process.platform}/${process.arch}, Node ${process.version}.`,
    "",
    "| command | median (ms) | ratio to `node -e 0` |",
    "| --- | ---: | ---: |",
    ...rows.map((row) => `| \`${row.name}\` | ${row.median.toFixed(1)} | ${row.ratio.toFixed(2)}× |`),
    "",
    `Target: \`nyz --version\` within 1.30× of bare Node — ${versionRatio <= 1.3 ? "met" : "NOT met"} (${versionRatio.toFixed(2)}×).`,
  ].join("\n");
  return { title: "Start-up (`bench/startup`)", markdown, ok: versionRatio <= 1.3 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await run();
  console.log(markdown);
}
