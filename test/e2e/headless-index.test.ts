import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveDirs } from "@nyzhi/config";
import type { MockLlm, Rule } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODE_INDEX_FIXTURE, writeFiles } from "./helpers/code-index-fixture.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * Headless runs do no index work nobody asked for (issue 32): without `index.auto_headless` a
 * `nyz exec` builds no index, emits no `index_progress`, and loads neither LanceDB nor the
 * chunker in its own process; an index that exists is opened on the first `semantic_search`, in
 * its own process (`nyz __index-process`), and used read-only.
 */

const RECORDER = fileURLToPath(new URL("./fixtures/record-modules.cjs", import.meta.url));

let home: string;
let project: string;
let mock: MockLlm | undefined;

interface Recorded {
  pid: number;
  argv: string[];
  modules: string[];
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-headless-index-");
  writeFiles(project, CODE_INDEX_FIXTURE);
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(join(home, "config", "config.toml"), '[index]\nembedding = "none"\n');
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

/** Runs `nyz exec --json` under the module recorder; returns its JSON lines and each process's record. */
async function exec(rules: Rule[], flags: string[] = []) {
  mock = await startScenario({ rules });
  const recordFile = join(home, "modules.jsonl");
  const result = await runNyz(["exec", "--json", "--full-auto", ...flags, "find the invoice total"], {
    cwd: project,
    env: {
      ...anthropicEnv(mock, home),
      NODE_OPTIONS: `--require ${RECORDER}`,
      RECORD_MODULES_FILE: recordFile,
    },
    timeoutMs: 60_000,
  });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  const lines = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string });
  const records = existsSync(recordFile)
    ? readFileSync(recordFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Recorded)
    : [];
  const main = records.find((record) => record.argv[1] === "exec");
  const indexChildren = records.filter((record) => record.argv.includes("__index-process"));
  return { lines, main, indexChildren, requests: mock.requests };
}

const SEARCH_THEN_ANSWER_SLOWLY: Rule[] = [
  {
    match: { lastIsToolResult: false },
    response: { toolCalls: [{ name: "semantic_search", arguments: { query: "computeInvoiceTotal" } }] },
  },
  // Longer than the 2 s after which a session used to start building a missing index.
  { response: { text: "done", delayMs: 2_500 } },
];

describe("the code index in a headless run", () => {
  it("says in nyz exec --help how to get auto-context headless", async () => {
    const help = await runNyz(["exec", "--help"], { cwd: project, env: { NYZHI_HOME: home } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--auto-context");
    expect(help.stdout).toContain("index.auto_headless = true");
  });

  it("builds nothing, emits no index_progress and loads no LanceDB in a project without an index", async () => {
    const { lines, main, indexChildren } = await exec(SEARCH_THEN_ANSWER_SLOWLY);
    expect(lines.filter((line) => line.type === "index_progress")).toEqual([]);
    const search = lines.find((line) => line.type === "tool_done" && line.name === "semantic_search");
    expect(search?.output).toContain("There is no code index for this project yet");
    expect(main?.modules).toEqual([]);
    expect(indexChildren).toEqual([]);
    expect(existsSync(resolveDirs({ NYZHI_HOME: home }).index)).toBe(false);
  });

  it("opens an existing index on the first semantic_search, in its own process, and writes nothing", async () => {
    const built = await runNyz(["index"], { cwd: project, env: { NYZHI_HOME: home }, timeoutMs: 60_000 });
    expect(built.code).toBe(0);
    const { lines, main, indexChildren, requests } = await exec(SEARCH_THEN_ANSWER_SLOWLY);
    const search = lines.find((line) => line.type === "tool_done" && line.name === "semantic_search");
    expect(search?.output).toMatch(/^1\. src\/billing\/invoice\.ts \(lines 1-5, symbol: computeInvoiceTotal/);
    expect(lines.filter((line) => line.type === "index_progress")).toEqual([]);
    expect(requests[0]?.system ?? "").not.toContain("<codebase_context>");
    expect(main?.modules).toEqual([]);
    expect(indexChildren).toHaveLength(1);
    expect(indexChildren[0]?.modules.some((name) => name.includes("lancedb"))).toBe(true);
  });

  it("adds auto-context to the first request when asked with --auto-context, the index in its own process", async () => {
    const built = await runNyz(["index"], { cwd: project, env: { NYZHI_HOME: home }, timeoutMs: 60_000 });
    expect(built.code).toBe(0);
    const { main, indexChildren, requests } = await exec(
      [{ response: { text: "done" } }],
      ["--auto-context"],
    );
    expect(requests[0]?.system ?? "").toMatch(/<codebase_context>[\s\S]*export function computeInvoiceTotal/);
    expect(main?.modules).toEqual([]);
    expect(indexChildren).toHaveLength(1);
  });
});
