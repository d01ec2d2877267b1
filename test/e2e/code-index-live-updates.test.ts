import { mkdirSync, writeFileSync } from "node:fs";
import { rm, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MockLlm, RecordedRequest, Rule } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODE_INDEX_FIXTURE, RENAME_INVOICE_TOTAL, writeFiles } from "./helpers/code-index-fixture.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * The index follows a running `nyz exec` session with `index.auto_headless` (issue 22; a headless
 * run uses the index read-only without it, issue 32): the agents' own edits are searchable
 * in the same turn, and files changed or deleted by another process are re-indexed by the
 * session's watcher. The index is built first by `nyz index`, full-text only (`embedding = "none"`).
 */

let home: string;
let project: string;
let mock: MockLlm | undefined;

/** How soon a change made by another process must be searchable (the figure), ms. */
const SEARCHABLE_WITHIN_MS = 2_000;
/** How long the model "thinks" before searching again after the test changed a file, ms. */
const MODEL_DELAY_MS = 1_000;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

/** The tool results the model was sent in `request`, in call order. */
function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.messages.at(-1)?.toolResults ?? []).map((result) => result.content);
}

const llmRequests = () => (mock?.requests ?? []).filter((request) => request.api === "anthropic");

async function buildIndex(): Promise<void> {
  mkdirSync(join(home, "config"), { recursive: true });
  // A headless run follows changes only with index.auto_headless (as the app always does).
  writeFileSync(join(home, "config", "config.toml"), '[index]\nembedding = "none"\nauto_headless = true\n');
  const built = await runNyz(["index"], { cwd: project, env: { NYZHI_HOME: home }, timeoutMs: 60_000 });
  expect(built.code).toBe(0);
}

function exec(rules: Rule[], prompt: string) {
  return startScenario({ rules }).then((started) => {
    mock = started;
    return runNyz(["exec", "--json", "--full-auto", prompt], {
      cwd: project,
      env: anthropicEnv(started, home),
      timeoutMs: 60_000,
    });
  });
}

/** Resolves once the mock has received `count` requests. */
async function requestArrived(count: number): Promise<void> {
  for (let waited = 0; !mock || mock.requests.length < count; waited += 10) {
    if (waited > 30_000) throw new Error(`request ${count} never came`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-index-live-");
  writeFiles(project, CODE_INDEX_FIXTURE);
  write(
    "src/shipping/rates.ts",
    "/** What a parcel costs to send, by weight. */\nexport function legacyShippingRate(weightKg: number): number {\n  return 4.5 + weightKg * 1.25;\n}\n",
  );
  await buildIndex();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe("the index follows a running session", () => {
  it("finds a function the agent renamed with edit when it searches for the new name in the same turn", async () => {
    const result = await exec(
      [
        {
          match: { lastIsToolResult: false },
          response: {
            toolCalls: [RENAME_INVOICE_TOTAL],
          },
        },
        {
          match: { lastIsToolResult: true },
          times: 1,
          response: {
            toolCalls: [{ name: "semantic_search", arguments: { query: "computeInvoiceGrandTotal" } }],
          },
        },
        { response: { text: "renamed" } },
      ],
      "rename computeInvoiceTotal to computeInvoiceGrandTotal",
    );
    expect(result.code).toBe(0);
    const requests = llmRequests();
    expect(requests).toHaveLength(3);
    expect(toolResults(requests[1])[0]).toContain("src/billing/invoice.ts");
    const [search] = toolResults(requests[2]);
    expect(search).toMatch(
      /^1\. src\/billing\/invoice\.ts \(lines 1-5, symbol: computeInvoiceGrandTotal, score: /,
    );
    expect(search).toContain("export function computeInvoiceGrandTotal(");
    expect(search).not.toContain("computeInvoiceTotal(");
  });

  it("makes a file another process changed searchable within 2 s, its old text gone", async () => {
    const running = exec(
      [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "semantic_search", arguments: { query: "legacyShippingRate" } }] },
        },
        {
          match: { lastIsToolResult: true },
          times: 1,
          response: {
            delayMs: MODEL_DELAY_MS,
            toolCalls: [
              { name: "semantic_search", arguments: { query: "freightShippingRate" } },
              { name: "semantic_search", arguments: { query: "legacyShippingRate" } },
            ],
          },
        },
        { response: { text: "done" } },
      ],
      "how much does shipping cost?",
    );
    await requestArrived(2);
    const changedAt = Date.now();
    await writeFile(
      join(project, "src/shipping/rates.ts"),
      "/** What a parcel costs to send, by weight and zone. */\nexport function freightShippingRate(weightKg: number, zone: number): number {\n  return 3.9 + weightKg * 1.1 + zone;\n}\n",
    );
    const result = await running;
    expect(result.code).toBe(0);
    const requests = llmRequests();
    expect(requests).toHaveLength(3);
    // Before the change the index held the old function.
    expect(toolResults(requests[1])[0]).toContain("symbol: legacyShippingRate");
    // The model searched again within the time allowed, and saw only the new text.
    expect(requests[1]!.endedAt! - changedAt).toBeLessThan(SEARCHABLE_WITHIN_MS);
    const [byNewName, byOldName] = toolResults(requests[2]);
    expect(byNewName).toMatch(
      /^1\. src\/shipping\/rates\.ts \(lines 1-4, symbol: freightShippingRate, score: /,
    );
    expect(byNewName).toContain("return 3.9 + weightKg * 1.1 + zone;");
    expect(byOldName).not.toContain("legacyShippingRate");
    expect(byOldName).not.toContain("4.5 + weightKg * 1.25");
  });

  it("catches up at session start with a file changed while no session ran", async () => {
    await writeFile(
      join(project, "src/shipping/rates.ts"),
      "export function freightShippingRate(weightKg: number): number {\n  return 3.9 + weightKg * 1.1;\n}\n",
    );
    const result = await exec(
      [
        {
          match: { lastIsToolResult: false },
          response: {
            delayMs: MODEL_DELAY_MS,
            toolCalls: [
              { name: "semantic_search", arguments: { query: "freightShippingRate" } },
              { name: "semantic_search", arguments: { query: "legacyShippingRate" } },
            ],
          },
        },
        { response: { text: "done" } },
      ],
      "what does freight cost?",
    );
    expect(result.code).toBe(0);
    const [byNewName, byOldName] = toolResults(llmRequests()[1]);
    expect(byNewName).toMatch(
      /^1\. src\/shipping\/rates\.ts \(lines 1-3, symbol: freightShippingRate, score: /,
    );
    expect(byOldName).not.toContain("legacyShippingRate");
  });

  it("drops the chunks of a file another process deleted from later searches", async () => {
    const search = { name: "semantic_search", arguments: { query: "startOfWeek day" } };
    const running = exec(
      [
        { match: { lastIsToolResult: false }, response: { toolCalls: [search] } },
        {
          match: { lastIsToolResult: true },
          times: 1,
          response: { delayMs: MODEL_DELAY_MS, toolCalls: [search] },
        },
        { response: { text: "done" } },
      ],
      "where does the week start?",
    );
    await requestArrived(2);
    await unlink(join(project, "src/util/dates.ts"));
    const result = await running;
    expect(result.code).toBe(0);
    const requests = llmRequests();
    expect(requests).toHaveLength(3);
    expect(toolResults(requests[1])[0]).toMatch(/^1\. src\/util\/dates\.ts \(lines 1-3, symbol: startOfWeek/);
    const [after] = toolResults(requests[2]);
    expect(after).not.toContain("src/util/dates.ts");
    expect(after).not.toContain("startOfWeek");
  });
});
