import { mkdirSync, writeFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { type NyzResult, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * Two `nyz` processes in one project at once (issue 22): `nyz index` re-indexes every file of a
 * project large enough to take a while, twice, while `nyz index search` runs in a loop and a
 * `nyz exec` session's model calls `semantic_search` (its watcher sees every rewrite too, so it
 * writes the index as well). Nothing fails, every search finds the file that never changes, and
 * afterwards the index holds exactly the last round. Full-text only (`embedding = "none"`).
 */

let home: string;
let project: string;
let mock: MockLlm | undefined;

/** Files rewritten each round: enough for `nyz index` to take a moment (~1-2 s here). */
const FILES = 1_500;
const ROUNDS = 2;
const ANCHOR = "src/anchor/ledger.ts";

interface SearchHit {
  path: string;
  symbol?: string;
  content: string;
}

const modulePath = (n: number) => `src/module-${String(n).padStart(4, "0")}/handler.ts`;
const moduleText = (n: number, round: number) =>
  `/** Handles queue ${n}, revision ${round}. */\nexport function handleQueue${n}Revision${round}(items: string[]): number {\n  return items.length + ${n * 10 + round};\n}\n`;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

const nyz = (args: string[], timeoutMs = 60_000) =>
  runNyz(args, { cwd: project, env: { NYZHI_HOME: home }, timeoutMs });

/**
 * What `nyz index` wrote on stderr besides its progress lines (piped: one every 2 s) and the line
 * saying it waits for the session's own re-index to finish (it then goes on).
 */
const notProgress = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line && !line.startsWith("indexing: ") && !line.startsWith("Waiting for another nyz"));

/** The problem with a `nyz index search --json` run, or undefined when it found the anchor first. */
function searchProblem(result: NyzResult): string | undefined {
  if (result.code !== 0 || result.stderr !== "") return `exit ${result.code}: ${result.stderr.slice(0, 300)}`;
  try {
    const hits = JSON.parse(result.stdout) as SearchHit[];
    return hits[0]?.path === ANCHOR ? undefined : `first hit ${hits[0]?.path ?? "none"}`;
  } catch {
    return `not JSON: ${result.stdout.slice(0, 200)}`;
  }
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-index-concurrency-");
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(
    join(home, "config", "config.toml"),
    '[index]\nembedding = "none"\nauto = false\nauto_headless = true\n',
  );
  write(
    ANCHOR,
    "/** Matches the ledger's entries against the bank statement. */\nexport function reconcileLedgerBalances(entries: number[]): number {\n  return entries.reduce((sum, entry) => sum + entry, 0);\n}\n",
  );
  for (let n = 0; n < FILES; n++) write(modulePath(n), moduleText(n, 0));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe("two nyz processes on one index", () => {
  it("index and search at once without errors, and leave a whole index", async () => {
    const built = await nyz(["index"]);
    expect({ code: built.code, stderr: notProgress(built.stderr) }).toEqual({ code: 0, stderr: [] });

    const search = { name: "semantic_search", arguments: { query: "reconcileLedgerBalances" } };
    mock = await startScenario({
      rules: [
        { match: { anyMessage: "reconcile" }, times: 4, response: { delayMs: 400, toolCalls: [search] } },
        { response: { text: "done" } },
      ],
    });
    let indexing = true;
    const writer = (async () => {
      const runs: NyzResult[] = [];
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          await Promise.all(
            Array.from({ length: FILES }, (_, n) =>
              writeFile(join(project, modulePath(n)), moduleText(n, round)),
            ),
          );
          runs.push(await nyz(["index"], 120_000));
        }
      } finally {
        indexing = false;
      }
      return runs;
    })();
    const searcher = (async () => {
      const problems: string[] = [];
      let searches = 0;
      while (indexing) {
        const problem = searchProblem(
          await nyz(["index", "search", "reconcileLedgerBalances", "--json", "-k", "3"]),
        );
        searches++;
        if (problem) problems.push(problem);
      }
      return { problems, searches };
    })();
    const session = runNyz(["exec", "--json", "--full-auto", "where is the ledger reconciled?"], {
      cwd: project,
      env: anthropicEnv(mock, home),
      timeoutMs: 120_000,
    });
    const [runs, searched, exec] = await Promise.all([writer, searcher, session]);

    for (const run of runs)
      expect({ code: run.code, stderr: notProgress(run.stderr) }).toEqual({ code: 0, stderr: [] });
    // The session's watcher may have re-indexed some of a round's files first.
    for (const run of runs) expect(run.stdout).toMatch(/^(Indexed [\d,]+ files|The index is up to date)/);
    expect(searched.problems).toEqual([]);
    expect(searched.searches).toBeGreaterThanOrEqual(2);
    expect({ code: exec.code, stderr: exec.stderr }).toEqual({ code: 0, stderr: "" });
    const searchResults = exec.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string; is_error?: boolean })
      .filter((line) => line.type === "tool_done" && line.name === "semantic_search");
    expect(searchResults).toHaveLength(4);
    for (const result of searchResults) {
      expect(result.is_error).toBeFalsy();
      expect(result.output).toMatch(
        /^1\. src\/anchor\/ledger\.ts \(lines 1-4, symbol: reconcileLedgerBalances/,
      );
    }

    // Afterwards: every file once, complete, and only the last round's text.
    const status = await nyz(["index", "status", "--json"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      built: true,
      files: FILES + 1,
      complete: true,
      rebuildPending: false,
    });
    const latest = await nyz(["index", "search", `handleQueue42Revision${ROUNDS}`, "--json", "-k", "5"]);
    const hits = JSON.parse(latest.stdout) as SearchHit[];
    expect(hits[0]).toMatchObject({ path: modulePath(42), symbol: `handleQueue42Revision${ROUNDS}` });
    const stale = await nyz(["index", "search", "handleQueue42Revision1", "--json", "-k", "20"]);
    for (const hit of JSON.parse(stale.stdout) as SearchHit[]) {
      expect(hit.content).not.toMatch(/Revision[01]\b|revision [01]\./);
    }
    expect(
      searchProblem(await nyz(["index", "search", "reconcileLedgerBalances", "--json", "-k", "3"])),
    ).toBe(undefined);
  }, 240_000);
});
