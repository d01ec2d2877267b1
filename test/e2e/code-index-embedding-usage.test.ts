import { mkdirSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type MockLlm, mockEmbeddingTokens, type RecordedRequest } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODE_INDEX_FIXTURE, RENAME_INVOICE_TOTAL, writeFiles } from "./helpers/code-index-fixture.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * A remote embedder's tokens and cost in the usage `nyz exec` and `nyz export` report (issue 22):
 * the code index embeds with OpenAI's `text-embedding-3-small`, pointed at the mock server's
 * `/v1/embeddings`, which bills `mockEmbeddingTokens` per text.
 */

let home: string;
let project: string;
let mock: MockLlm | undefined;

/** text-embedding-3-small's list price, US dollars per token. */
const PRICE = 0.02 / 1_000_000;

interface JsonLine {
  type: string;
  [field: string]: unknown;
}

function _write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

const billed = (requests: readonly RecordedRequest[]) =>
  requests
    .filter((request) => request.api === "embeddings")
    .flatMap((request) => (request.body as { input: string[] }).input)
    .reduce((sum, text) => sum + mockEmbeddingTokens(text), 0);

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-embedding-usage-");
  writeFiles(project, CODE_INDEX_FIXTURE);
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe("embedding usage in nyz exec and nyz export", () => {
  it("counts the tokens the index's remote embedder was billed in turn_complete, cost_usd and the export", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { lastIsToolResult: false },
          response: {
            toolCalls: [RENAME_INVOICE_TOTAL],
          },
        },
        {
          match: { lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "semantic_search", arguments: { query: "invoice grand total" } }] },
        },
        { response: { text: "renamed" } },
      ],
    });
    mkdirSync(join(home, "config"), { recursive: true });
    writeFileSync(
      join(home, "config", "config.toml"),
      // auto_headless: this exec run re-indexes the edited file and adds auto-context, as the app does.
      `[index]\nembedding = "openai"\nembedding_base_url = "${mock.url}/v1"\nauto = false\nauto_headless = true\n`,
    );
    const env = { ...anthropicEnv(mock, home), OPENAI_API_KEY: "test-openai-key" };
    const built = await runNyz(["index"], { cwd: project, env, timeoutMs: 60_000 });
    expect(built.code).toBe(0);
    const beforeRun = mock.requests.length;
    expect(billed(mock.requests)).toBeGreaterThan(0);

    const result = await runNyz(["exec", "--json", "--full-auto", "rename the invoice total"], {
      cwd: project,
      env,
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as JsonLine);
    const spent = billed(mock.requests.slice(beforeRun));
    // The edited file's chunks, the auto-context query and the semantic_search query at least.
    expect(spent).toBeGreaterThan(mockEmbeddingTokens("invoice grand total") + 10);
    const complete = lines.at(-1)!;
    expect(complete.type).toBe("turn_complete");
    expect(complete.embedding_tokens).toBe(spent);
    const modelCost = lines
      .filter((line) => line.type === "usage")
      .reduce((sum, line) => sum + (line.cost_usd as number), 0);
    expect(complete.cost_usd as number).toBeCloseTo(modelCost + spent * PRICE, 12);
    const reindexed = lines.find(
      (line) => line.type === "index_progress" && line.phase === "ready" && line.files_done === 1,
    );
    expect(reindexed).toMatchObject({ files_done: 1, embedded: 1 });
    expect(reindexed?.embedding_tokens as number).toBeGreaterThan(0);
    expect(reindexed?.cost_usd as number).toBeCloseTo((reindexed?.embedding_tokens as number) * PRICE, 12);

    const exported = await runNyz(["export", complete.session_id as string, "-o", "-"], {
      cwd: project,
      env,
    });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`\nembedding tokens: ${spent}\n`);

    // Without --json the summary says it too (the search embeds its query).
    mock.setScenario({
      rules: [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "semantic_search", arguments: { query: "invoice tax" } }] },
        },
        { response: { text: "found" } },
      ],
    });
    const text = await runNyz(["exec", "--full-auto", "rename the invoice total"], {
      cwd: project,
      env,
      timeoutMs: 60_000,
    });
    expect(text.stderr).toMatch(/ out tokens · \d+ embedding tokens · \$/);
  }, 90_000);
});
