import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-stream-cut-"));
  home = await tempHome();
  // Short backoff: the retry itself is under test, not its timing.
  await mkdir(join(workspace, ".nyzhi"), { recursive: true });
  await writeFile(
    join(workspace, ".nyzhi", "config.toml"),
    "[agent.retry]\ninitial_backoff_ms = 20\nmax_backoff_ms = 100\n",
  );
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function lines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function savedMessages(sessionId: unknown): Promise<{ role: string; content: unknown }[]> {
  const record = JSON.parse(
    await readFile(join(home, "data", "sessions", `${String(sessionId)}.json`), "utf8"),
  );
  return record.messages;
}

/** Anthropic events: message_start, ping, text block start, deltas… — 5 cuts inside the third delta. */
const TEXT_CUT: Scenario = {
  rules: [
    {
      times: 1,
      response: {
        text: ["The partial ", "answer that ", "will be cut."],
        fault: { type: "cut", afterChunks: 5 },
      },
    },
    { response: { text: ["The clean ", "answer."] } },
  ],
};

const COUNT_A = { command: "echo a >> counter.txt" };
const COUNT_B = { command: "echo b >> counter.txt" };
/**
 * Text, a whole first `bash` call, then a second cut inside its arguments (event 12 of: message_start,
 * ping, text start/delta/stop, call A start/3 deltas/stop, call B start, its first delta).
 */
const TOOL_CUT: Scenario = {
  rules: [
    {
      times: 1,
      response: {
        text: ["Running both."],
        toolCalls: [
          { name: "bash", arguments: COUNT_A },
          { name: "bash", arguments: COUNT_B },
        ],
        fault: { type: "cut", afterChunks: 12 },
      },
    },
    { match: { lastIsToolResult: true }, response: { text: "Both ran." } },
    {
      response: {
        text: ["Running both."],
        toolCalls: [
          { name: "bash", arguments: COUNT_A },
          { name: "bash", arguments: COUNT_B },
        ],
      },
    },
  ],
};

describe("a stream cut mid-message retries the step", () => {
  it("after text: one clean answer, a retry line naming the partial text, no partial in the session", async () => {
    mock = await startScenario(TEXT_CUT);
    const env = anthropicEnv(mock, home);
    const json = await runNyz(["exec", "--json", "say it"], { cwd: workspace, env, timeoutMs: 30_000 });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const events = lines(json.stdout);
    const retry = events.find((event) => event.type === "retry");
    expect(retry).toMatchObject({
      type: "retry",
      attempt: 1,
      discard: { text: "The partial answer that ", tool_calls: [] },
    });
    // The retry line follows the partial deltas and precedes the clean ones.
    const retryIndex = events.indexOf(retry!);
    const textAfter = events
      .slice(retryIndex + 1)
      .filter((event) => event.type === "text_delta")
      .map((event) => event.text)
      .join("");
    expect(textAfter).toBe("The clean answer.");
    expect(events.at(-1)).toMatchObject({
      type: "turn_complete",
      reason: "completed",
      text: "The clean answer.",
    });
    expect(mock.requests).toHaveLength(2);
    // The retry sends the same thread: no partial assistant message in it.
    expect(mock.requests[1]!.messages).toEqual(mock.requests[0]!.messages);
    const session = events[0]!.session_id;
    expect(await savedMessages(session)).toEqual([
      { role: "user", content: "say it" },
      { role: "assistant", content: [{ type: "text", text: "The clean answer." }] },
    ]);

    mock.reset();
    const quiet = await runNyz(["exec", "-q", "say it"], { cwd: workspace, env, timeoutMs: 30_000 });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe("The clean answer.\n");

    mock.reset();
    const text = await runNyz(["exec", "say it"], { cwd: workspace, env, timeoutMs: 30_000 });
    expect(text.code).toBe(0);
    // Only the answer on stdout; the partial one stays in the progress on stderr.
    expect(text.stdout).toBe("The clean answer.\n");
    expect(text.stderr).toMatch(
      /The partial answer that \n\[connection lost, retrying \(1\/3\); the partial answer above is discarded\]\nThe clean answer\./,
    );
  });

  it("inside a tool call's arguments: no call of the cut message runs, each runs once on the retry", async () => {
    mock = await startScenario(TOOL_CUT);
    const env = anthropicEnv(mock, home);
    const json = await runNyz(["exec", "--json", "--full-auto", "count"], {
      cwd: workspace,
      env,
      timeoutMs: 30_000,
    });
    expect(json.code).toBe(0);
    expect(await readFile(join(workspace, "counter.txt"), "utf8")).toBe("a\nb\n");
    const events = lines(json.stdout);
    const retry = events.find((event) => event.type === "retry");
    expect(retry).toMatchObject({
      discard: {
        text: "Running both.",
        tool_calls: [
          { id: expect.stringMatching(/^toolu_mock_/), name: "bash" },
          { id: expect.stringMatching(/^toolu_mock_/), name: "bash" },
        ],
      },
    });
    // No tool ran before the retry.
    expect(events.slice(0, events.indexOf(retry!)).filter((event) => event.type === "tool_start")).toEqual(
      [],
    );
    expect(events.filter((event) => event.type === "tool_done")).toHaveLength(2);
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[1]!.messages).toEqual(mock.requests[0]!.messages);
    const saved = await savedMessages(events[0]!.session_id);
    expect(saved.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    // The calls saved are the retry's, not the cut message's.
    const cutIds = (retry!.discard as { tool_calls: { id: string }[] }).tool_calls.map((call) => call.id);
    const savedIds = JSON.stringify(saved).match(/toolu_mock_\d+/g) ?? [];
    expect(savedIds).toHaveLength(4);
    expect(savedIds.filter((id) => cutIds.includes(id))).toEqual([]);

    mock.reset();
    const quiet = await runNyz(["exec", "-q", "--full-auto", "count again"], {
      cwd: workspace,
      env,
      timeoutMs: 30_000,
    });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe("Both ran.\n");
    expect(await readFile(join(workspace, "counter.txt"), "utf8")).toBe("a\nb\na\nb\n");
  });

  it("when every retry is cut too: exit 1, no partial as the -q answer, none in the session", async () => {
    await writeFile(
      join(workspace, ".nyzhi", "config.toml"),
      "[agent.retry]\nmax_retries = 1\ninitial_backoff_ms = 20\nmax_backoff_ms = 100\n",
    );
    mock = await startScenario({
      rules: [{ response: { text: ["Half ", "an ", "answer."], fault: { type: "cut", afterChunks: 5 } } }],
    });
    const env = anthropicEnv(mock, home);
    const quiet = await runNyz(["exec", "-q", "say it"], { cwd: workspace, env, timeoutMs: 30_000 });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe("");
    expect(quiet.stderr).toContain("Error: ");
    expect(mock.requests).toHaveLength(2);

    mock.reset();
    const json = await runNyz(["exec", "--json", "say it"], { cwd: workspace, env, timeoutMs: 30_000 });
    expect(json.code).toBe(1);
    const events = lines(json.stdout);
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    // The run ends with turn_complete saying it failed, with no partial text as the answer.
    expect(events.at(-1)).toMatchObject({ type: "turn_complete", reason: "error", text: "" });
    expect(await savedMessages(events[0]!.session_id)).toEqual([{ role: "user", content: "say it" }]);
  });
});
