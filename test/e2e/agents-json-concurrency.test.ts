import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";

// The worker processes run the built core (the root `pnpm test` builds first).
const CORE_URL = pathToFileURL(
  fileURLToPath(new URL("../../packages/core/dist/index.js", import.meta.url)),
).href;
const WORKER = fileURLToPath(new URL("./fixtures/agents-json-worker.mjs", import.meta.url));

let project: string;
let home: string;
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), "nyzhi-agents-json-race-"));
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(join(project, ".nyzhi"), { recursive: true });
});

const agentsFile = () => join(project, ".nyzhi/agents.json");
const definition = (name: string) => ({ description: `${name} helps`, prompt: `You are ${name}.` });
const entriesFor = (names: string[]) => Object.fromEntries(names.map((name) => [name, definition(name)]));
const names = (prefix: string, first: number, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${first + index}`);

function worker(mode: "define" | "remove", prefix: string, first: number, count: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [WORKER, CORE_URL, mode, project, home, prefix, String(first), String(count)],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) =>
    child.on("close", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`worker ${mode} ${prefix} ended ${code ?? signal}: ${stderr}`)),
    ),
  );
}

describe("agents.json under concurrency (8 real processes on the built core)", () => {
  it("8 processes × 25 define_agent calls into one agents.json: all 200 definitions kept", async () => {
    await Promise.all(Array.from({ length: 8 }, (_, index) => worker("define", `p${index}`, 0, 25)));
    const expected = Array.from({ length: 8 }, (_, index) => names(`p${index}`, 0, 25)).flat();
    expect(JSON.parse(await readFile(agentsFile(), "utf8"))).toEqual(entriesFor(expected));
    // No lock or temp file is left behind.
    expect(await readdir(join(project, ".nyzhi"))).toEqual(["agents.json"]);
  }, 60_000);

  it("4 processes removing while 4 define: every removal and every definition holds", async () => {
    await writeFile(agentsFile(), JSON.stringify(entriesFor(names("old", 0, 100))));
    await Promise.all([
      ...Array.from({ length: 4 }, (_, index) => worker("remove", "old", index * 25, 25)),
      ...Array.from({ length: 4 }, (_, index) => worker("define", `new${index}`, 0, 25)),
    ]);
    const expected = Array.from({ length: 4 }, (_, index) => names(`new${index}`, 0, 25)).flat();
    expect(JSON.parse(await readFile(agentsFile(), "utf8"))).toEqual(entriesFor(expected));
    expect(await readdir(join(project, ".nyzhi"))).toEqual(["agents.json"]);
  }, 60_000);
});
