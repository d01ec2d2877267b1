import { mkdirSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MockLlm, Rule } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODE_INDEX_FIXTURE, writeFiles } from "./helpers/code-index-fixture.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * The code index in `nyz exec` sessions (issue 22): auto-context in the first request (asked for
 * with `--auto-context` since issue 32), per role
 * for subagents, and `semantic_search` with and without an index. Full-text index (embedding none).
 */

let home: string;
let project: string;
let mock: MockLlm | undefined;

function _write(path: string, content: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), content);
}

function globalConfig(toml: string): void {
  mkdirSync(join(home, "config"), { recursive: true });
  // A loaded machine (the whole suite in parallel) may take longer than the default 150 ms to open
  // the index; these tests are about what the block holds, not about that wait.
  writeFileSync(
    join(home, "config", "config.toml"),
    `[index]\nembedding = "none"\nauto_context_wait_ms = 5000\n${toml}`,
  );
}

const BLOCK = /<codebase_context>[\s\S]*?<\/codebase_context>/;

async function exec(rules: Rule[], prompt: string, flags: string[] = []) {
  mock = await startScenario({ rules });
  const result = await runNyz(["exec", "--json", "--full-auto", ...flags, prompt], {
    cwd: project,
    env: anthropicEnv(mock, home),
    timeoutMs: 60_000,
  });
  const tools = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string })
    .filter((line) => line.type === "tool_done");
  return { result, requests: mock.requests, tools };
}

beforeEach(async () => {
  home = await tempHome();
  project = await tempProject("nyzhi-code-index-");
  writeFiles(project, CODE_INDEX_FIXTURE);
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

describe("the code index in nyz exec", () => {
  it("puts the fixture function in the first request's <codebase_context>, within the budget; none when off", async () => {
    globalConfig("");
    const built = await runNyz(["index"], { cwd: project, env: { NYZHI_HOME: home }, timeoutMs: 60_000 });
    expect(built.code).toBe(0);
    // A headless run adds auto-context when asked (issue 32).
    const on = await exec([{ response: { text: "done" } }], "how is the invoice total computed with tax?", [
      "--auto-context",
    ]);
    expect(on.result.code).toBe(0);
    const block = BLOCK.exec(on.requests[0]?.system ?? "")?.[0] ?? "";
    expect(block).toContain("export function computeInvoiceTotal");
    expect(block.length / 4).toBeLessThanOrEqual(2000);
    await mock?.close();

    // Not asked: none by default headless, and none with index.auto_headless and auto_context off.
    const plain = await exec([{ response: { text: "done" } }], "how is the invoice total computed with tax?");
    expect(plain.requests[0]?.system ?? "").not.toContain("<codebase_context>");
    await mock?.close();
    globalConfig("auto_headless = true\nauto_context = false\n");
    const off = await exec([{ response: { text: "done" } }], "how is the invoice total computed with tax?");
    expect(off.requests[0]?.system ?? "").not.toContain("<codebase_context>");
  }, 90_000);

  it("gives an explorer (its role opts in) its own block, a worker none; semantic_search finds file and symbol", async () => {
    globalConfig("");
    expect(
      (await runNyz(["index"], { cwd: project, env: { NYZHI_HOME: home }, timeoutMs: 60_000 })).code,
    ).toBe(0);
    const { requests, tools } = await exec(
      [
        {
          match: { system: "You are Nizzy", lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "semantic_search", arguments: { query: "invoice total with tax" } },
              {
                name: "spawn_agent",
                arguments: { agent_type: "explorer", message: "where is the invoice tax applied" },
              },
              {
                name: "spawn_agent",
                arguments: { agent_type: "worker", message: "where is the invoice tax applied" },
              },
              { name: "wait", arguments: {} },
            ],
          },
        },
        { match: { system: { regex: "^(?!You are Nizzy)" } }, response: { text: "found it" } },
        { response: { text: "done" } },
      ],
      "look for the invoice code",
      ["--auto-context"],
    );
    const search = tools.find((tool) => tool.name === "semantic_search");
    expect(search?.output).toMatch(
      /^1\. src\/billing\/invoice\.ts \(lines 1-5, symbol: computeInvoiceTotal, score: /,
    );
    const children = requests.filter((request) => !(request.system ?? "").startsWith("You are Nizzy"));
    expect(children).toHaveLength(2);
    const withBlock = children.filter((request) => BLOCK.test(request.system ?? ""));
    expect(withBlock).toHaveLength(1);
    expect(withBlock[0]?.system).toMatch(/explorer/i);
  }, 90_000);

  it("answers semantic_search with full-text matches on a project without an index, and says so", async () => {
    globalConfig("auto = false\n");
    const { tools, requests } = await exec(
      [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "semantic_search", arguments: { query: "computeInvoiceTotal" } }] },
        },
        { response: { text: "done" } },
      ],
      "find the invoice total",
    );
    expect(requests[0]?.system ?? "").not.toContain("<codebase_context>");
    const output = tools.find((tool) => tool.name === "semantic_search")?.output ?? "";
    expect(output).toContain("There is no code index for this project yet");
    expect(output).toContain("1. src/billing/invoice.ts (lines 1-");
  });
});
