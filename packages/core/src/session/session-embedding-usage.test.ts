import { mkdir, mkdtemp, readdir, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@nyzhi/config";
import { createIndex } from "@nyzhi/index";
import { type MockLlm, mockEmbeddingTokens, type RecordedRequest, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../events/agent-events.js";
import { openSession } from "./open-session.js";
import type { OpenedSession } from "./session-handle.js";

/**
 * The code index's remote embedder in a session's usage: an OpenAI embedder pointed at the mock
 * server's `/v1/embeddings`, which bills `mockEmbeddingTokens` per text.
 */

let mock: MockLlm | undefined;
let session: OpenedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  await mock?.close();
  mock = undefined;
});

/** text-embedding-3-small, US dollars per token. */
const PRICE = 0.02 / 1_000_000;

const billed = (requests: readonly RecordedRequest[]) =>
  requests
    .filter((request) => request.api === "embeddings")
    .flatMap((request) => (request.body as { input: string[] }).input)
    .reduce((sum, text) => sum + mockEmbeddingTokens(text), 0);

async function drain(turn: AsyncGenerator<AgentEvent, unknown>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let next = await turn.next(); !next.done; next = await turn.next()) events.push(next.value);
  return events;
}

describe("a session's usage with a remote embedder", () => {
  it("counts the tokens of re-indexed files and embedded queries, prices them, and saves them", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { lastIsToolResult: false },
            response: {
              toolCalls: [
                {
                  name: "write",
                  arguments: {
                    file_path: "src/refunds.ts",
                    content:
                      "export function refundInvoice(id: string): string {\n  return 'refund ' + id;\n}\n",
                  },
                },
              ],
            },
          },
          {
            match: { anyMessage: "Wrote", lastIsToolResult: true },
            times: 1,
            response: { toolCalls: [{ name: "semantic_search", arguments: { query: "refund an invoice" } }] },
          },
          { response: { text: "done", usage: { inputTokens: 100, outputTokens: 10 } } },
        ],
      },
    });
    const root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-embedding-usage-")));
    const workspace = join(root, "project");
    const home = join(root, "home");
    await mkdir(join(workspace, ".git"), { recursive: true });
    await mkdir(join(workspace, "src"));
    await writeFile(
      join(workspace, "src", "invoice.ts"),
      "export function computeInvoiceTotal(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0);\n}\n",
    );
    await writeFile(join(workspace, "src", "week.ts"), "export const DAYS_IN_WEEK = 7;\n");
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(
      join(home, "config", "config.toml"),
      `[index]\nembedding = "openai"\nembedding_base_url = "${mock.url}/v1"\nauto = false\n`,
    );
    const env = {
      NYZHI_HOME: home,
      NYZHI_PROVIDER: "anthropic",
      NYZHI_TRUST: "full",
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      OPENAI_API_KEY: "test-openai-key",
      NYZHI_CREDENTIAL_STORE: "file",
      NYZHI_LOG: "silent",
    };
    const { config } = await loadConfig({ cwd: workspace, env });
    const index = createIndex({ root: workspace, env, config });
    expect((await index.update()).embedded).toBeGreaterThan(0);
    await index.close();
    const beforeSession = mock.requests.length;

    session = await openSession({ cwd: workspace, env });
    const events = await drain(session.runTurn("how do refunds work?"));
    await session.close();
    const spent = billed(mock.requests.slice(beforeSession));
    // The new file's chunks, the turn's auto-context query and the semantic_search query.
    expect(spent).toBeGreaterThan(mockEmbeddingTokens("refund an invoice"));
    const usage = session.usage();
    expect(usage.embeddingTokens).toBe(spent);
    expect(usage.usage.inputTokens).toBeGreaterThan(0);
    const modelCost = events
      .filter((event) => event.type === "usage")
      .reduce((sum, event) => sum + event.costUsd, 0);
    expect(usage.costUsd - modelCost).toBeCloseTo(spent * PRICE, 12);
    // The re-index's event carries its part, priced.
    const progress = events.filter((event) => event.type === "index-progress");
    expect(progress.length).toBeGreaterThan(0);
    for (const event of progress) expect(event.costUsd).toBeCloseTo(event.embeddingTokens * PRICE, 12);

    const saved = JSON.parse(await readFile(await findSessionFile(home, session.id), "utf8")) as {
      meta: { embeddingTokens?: number; costUsd?: number };
    };
    expect(saved.meta.embeddingTokens).toBe(spent);
    expect(saved.meta.costUsd).toBeCloseTo(usage.costUsd, 12);
  });
});

/** The saved session file wherever the store keeps it under `home`. */
async function findSessionFile(home: string, id: string): Promise<string> {
  const entries = await readdir(home, { recursive: true });
  const found = entries.find((entry) => entry.endsWith(`${id}.json`));
  if (!found) throw new Error(`no session file for ${id} under ${home}`);
  return join(home, found);
}
