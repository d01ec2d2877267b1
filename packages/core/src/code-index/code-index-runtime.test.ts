import { mkdir, mkdtemp, realpath, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { defaultConfig, type NyzhiConfig } from "@nyzhi/config";
import { createIndex } from "@nyzhi/index";
import { type MockLlm, type Rule, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockLanguageModel } from "../agent-loop/testing/mock-language-model.js";
import type { AgentEvent } from "../events/agent-events.js";
import { createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { CodeIndexService } from "./code-index-service.js";

let mock: MockLlm | undefined;
let root: string;
let home: string;

const INVOICE = `/** Adds up the lines of an invoice, with tax. */
export function computeInvoiceTotal(lines: number[], taxRate: number): number {
  const net = lines.reduce((sum, line) => sum + line, 0);
  return net * (1 + taxRate);
}
`;

async function write(path: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

function testConfig(): NyzhiConfig {
  const config = defaultConfig();
  config.agent.trust.mode = "full";
  config.agent.agents.enabled = false;
  config.index.embedding = "none";
  // The index opens at the turn's start: on a loaded machine more than the default 150 ms.
  config.index.auto_context_wait_ms = 5000;
  return config;
}

const env = () => ({ PATH: process.env.PATH, HOME: home, NYZHI_HOME: join(home, "nyzhi") });

async function buildIndex(config: NyzhiConfig): Promise<void> {
  const index = createIndex({ root, env: env(), config, embedder: null });
  await index.update();
  await index.close();
}

async function run(rules: Rule[], config: NyzhiConfig, prompt = "how is the invoice total computed?") {
  mock = await startMockLlm({ scenario: { rules } });
  const runtime = createAgentRuntime({
    config,
    model: mockLanguageModel(mock, { modelId: "claude-sonnet-4-6-20260217" }),
    cwd: root,
    env: env(),
  });
  const events: AgentEvent[] = [];
  const turn = runtime.runTurn(prompt, { signal: new AbortController().signal });
  for (let next = await turn.next(); !next.done; next = await turn.next()) events.push(next.value);
  await runtime.close();
  const outputs = new Map<string, string>();
  for (const event of events) if (event.type === "tool-end") outputs.set(event.callId, event.output);
  return { outputs, events, system: (index: number) => mock?.requests[index]?.system ?? "" };
}

// Three files at least: BM25 gives a word found in half of a two-chunk index no weight.
beforeEach(async () => {
  const parent = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-code-index-")));
  root = join(parent, "project");
  home = join(parent, "home");
  await mkdir(join(root, ".git"), { recursive: true });
  await mkdir(home);
  await write("src/billing/invoice.ts", INVOICE);
  await write(
    "src/util/dates.ts",
    "export function startOfWeek(day: Date): Date {\n  return new Date(day.getTime() - day.getDay() * 86_400_000);\n}\n",
  );
  await write(
    "src/util/strings.ts",
    "export function padLeft(text: string, width: number): string {\n  return text.padStart(width);\n}\n",
  );
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(dirname(root), { recursive: true, force: true });
});

describe("the code index in a session", () => {
  it("puts a <codebase_context> block within the budget in the turn's request, and none when off", async () => {
    const config = testConfig();
    await buildIndex(config);
    const on = await run([{ response: { text: "done" } }], config);
    const block = /<codebase_context>[\s\S]*<\/codebase_context>/.exec(on.system(0))?.[0] ?? "";
    expect(block).toContain('file="src/billing/invoice.ts"');
    expect(block).toContain("export function computeInvoiceTotal");
    expect(block.length / 4).toBeLessThanOrEqual(config.index.auto_context_tokens);
    await mock?.close();

    config.index.auto_context_tokens = 20;
    const tight = await run([{ response: { text: "done" } }], config);
    expect(tight.system(0)).not.toContain("<codebase_context>");
    await mock?.close();

    config.index.auto_context_tokens = 2000;
    config.index.auto_context = false;
    const off = await run([{ response: { text: "done" } }], config);
    expect(off.system(0)).not.toContain("<codebase_context>");
  });

  it("leaves out files the conversation already names", async () => {
    const config = testConfig();
    await buildIndex(config);
    const result = await run(
      [{ response: { text: "done" } }],
      config,
      "explain src/billing/invoice.ts invoice total",
    );
    expect(result.system(0)).not.toContain('file="src/billing/invoice.ts"');
  });

  it("semantic_search lists the file and symbol; an agent's edit is searchable in the next step", async () => {
    const config = testConfig();
    await buildIndex(config);
    const { outputs } = await run(
      [
        {
          match: { requestIndex: 1 },
          response: {
            toolCalls: [{ id: "s1", name: "semantic_search", arguments: { query: "invoice total tax" } }],
          },
        },
        {
          match: { requestIndex: 2 },
          response: {
            toolCalls: [
              {
                id: "e1",
                name: "edit",
                arguments: {
                  file_path: "src/billing/invoice.ts",
                  old_string: "computeInvoiceTotal",
                  new_string: "sumInvoiceWithTax",
                },
              },
            ],
          },
        },
        {
          match: { requestIndex: 3 },
          response: {
            toolCalls: [
              { id: "s2", name: "semantic_search", arguments: { query: "sumInvoiceWithTax" } },
              { id: "d1", name: "delete_file", arguments: { path: "src/util/strings.ts" } },
            ],
          },
        },
        {
          match: { requestIndex: 4 },
          response: { toolCalls: [{ id: "s3", name: "semantic_search", arguments: { query: "padLeft" } }] },
        },
        { response: { text: "done" } },
      ],
      config,
    );
    expect(outputs.get("s1")).toMatch(
      /^1\. src\/billing\/invoice\.ts \(lines 1-5, symbol: computeInvoiceTotal, score: /,
    );
    expect(outputs.get("s2")).toMatch(
      /^1\. src\/billing\/invoice\.ts \(lines 1-5, symbol: sumInvoiceWithTax, score: /,
    );
    expect(outputs.get("s2")).not.toContain("computeInvoiceTotal");
    expect(outputs.get("s3")).not.toContain("src/util/strings.ts");
  });

  it("answers with full-text matches and says so when there is no index", async () => {
    const config = testConfig();
    config.index.auto = false;
    const { outputs, system } = await run(
      [
        {
          match: { requestIndex: 1 },
          response: {
            toolCalls: [{ id: "s1", name: "semantic_search", arguments: { query: "computeInvoiceTotal" } }],
          },
        },
        { response: { text: "done" } },
      ],
      config,
    );
    expect(system(0)).not.toContain("<codebase_context>");
    expect(outputs.get("s1")).toContain("There is no code index for this project yet");
    expect(outputs.get("s1")).toContain("1. src/billing/invoice.ts (lines 1-");
  });
});

describe("CodeIndexService", () => {
  it("re-indexes a file another process changed or deleted, within 2 s", async () => {
    const config = testConfig();
    await buildIndex(config);
    const activity: string[] = [];
    const service = new CodeIndexService({
      root,
      env: env(),
      config,
      onActivity: (a) => activity.push(a.phase),
    });
    service.start();
    try {
      // The watcher is ready once the index is open and the first scan is done.
      await service.ready();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await write("src/billing/invoice.ts", INVOICE.replace("computeInvoiceTotal", "invoiceGrandTotal"));
      await unlink(join(root, "src/util/strings.ts"));
      const started = Date.now();
      let contents = "";
      let gone = "";
      while (Date.now() - started < 2000) {
        contents = ((await service.search("invoiceGrandTotal")) ?? []).map((hit) => hit.content).join("\n");
        gone = ((await service.search("padLeft")) ?? []).map((hit) => hit.path).join("\n");
        if (contents.includes("invoiceGrandTotal") && !gone.includes("strings.ts")) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(contents).toContain("invoiceGrandTotal");
      expect(contents).not.toContain("computeInvoiceTotal");
      expect(gone).not.toContain("src/util/strings.ts");
      expect(activity).toContain("ready");
    } finally {
      await service.close();
    }
  });

  it("builds a missing index in the background when index.auto is on, with progress", async () => {
    const config = testConfig();
    const phases: string[] = [];
    const service = new CodeIndexService({
      root,
      env: env(),
      config,
      watch: false,
      onActivity: (a) => phases.push(a.phase),
    });
    try {
      expect(await service.search("invoice")).toBeUndefined();
      service.start({ delayMs: 0 });
      const started = Date.now();
      while (!(await service.isBuilt()) && Date.now() - started < 20_000)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await service.settled();
      expect(phases[0]).toBe("building");
      expect(phases.at(-1)).toBe("ready");
      expect((await service.search("computeInvoiceTotal"))?.[0]?.symbol).toBe("computeInvoiceTotal");
    } finally {
      await service.close();
    }
  });
});
