import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, RecordedRequest } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-compact-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const SUMMARISER = "You summarise a coding session";
const size = (request: RecordedRequest) => JSON.stringify(request.body).length;

/** Every tool result in the request answers a tool call made earlier in the same request. */
function orphanedResults(request: RecordedRequest): string[] {
  const calls = new Set(
    request.messages.flatMap((message) => message.toolCalls?.map((call) => call.id) ?? []),
  );
  return request.messages
    .flatMap((message) => message.toolResults?.map((result) => result.id) ?? [])
    .filter((id) => !calls.has(id));
}

describe("automatic compaction in a headless run", () => {
  it("summarises older turns once the threshold is crossed; the next request is smaller, carries the summary, and has no orphaned tool result", async () => {
    for (const name of ["a", "b", "c", "d", "e", "f"]) {
      await writeFile(
        join(workspace, `${name}.txt`),
        `${name}: ${"lorem ipsum dolor sit amet ".repeat(120)}\n`,
      );
    }
    await mkdir(join(workspace, ".nyzhi"));
    // The threshold counts the tool definitions (~6k tokens) too: 18k at 0.5 is crossed after a
    // few of the six reads, with enough read to summarise.
    await writeFile(
      join(workspace, ".nyzhi", "config.toml"),
      "[provider.anthropic]\ncontext_window = 18000\n\n[agent]\nauto_compact_threshold = 0.5\n",
    );
    const reads = ["a", "b", "c", "d", "e", "f"].map((name, index) => ({
      match: { system: "You are Nizzy", requestIndex: index + 1 },
      response: {
        text: `Reading ${name}.`,
        toolCalls: [{ name: "read", arguments: { file_path: `${name}.txt` } }],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
    }));
    mock = await startScenario({
      rules: [
        {
          match: { system: SUMMARISER },
          response: {
            text: "SUMMARY: the user asked to read six files; a–d were read.",
            usage: { inputTokens: 7000, outputTokens: 70 },
          },
        },
        ...reads,
        {
          match: { system: "You are Nizzy" },
          response: { text: "Read them all.", usage: { inputTokens: 100, outputTokens: 10 } },
        },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "read every file"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const summaryIndex = mock.requests.findIndex((request) => request.system?.startsWith(SUMMARISER));
    expect(summaryIndex).toBeGreaterThan(0);
    const before = mock.requests[summaryIndex - 1]!;
    const after = mock.requests[summaryIndex + 1]!;
    expect(size(after)).toBeLessThan(size(before));
    expect(after.messages[0]!.text).toContain("SUMMARY: the user asked to read six files");
    for (const request of mock.requests.filter((entry) => !entry.system?.startsWith(SUMMARISER))) {
      expect(orphanedResults(request)).toEqual([]);
    }
    // The request that started the turn is kept verbatim after the summary.
    // (Anthropic wants alternating roles: the summary and the request travel as one user message.)
    expect(after.messages[0]!.text).toMatch(/SUMMARY: [\s\S]*read every file$/);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; message?: string; input_tokens?: number });
    // The summaries' tokens are counted in the run's totals.
    const summaries = mock.requests.filter((request) => request.system?.startsWith(SUMMARISER)).length;
    const turns = mock.requests.length - summaries;
    expect(events.at(-1)).toMatchObject({
      type: "turn_complete",
      input_tokens: 7000 * summaries + 100 * turns,
    });
    const notices = events.filter((event) => event.type === "notice");
    expect(notices.map((notice) => notice.message).join("\n")).toMatch(/compaction|Full compaction complete/);
  });
});
