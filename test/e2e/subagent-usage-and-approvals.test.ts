import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { computeCost, findModel, type Usage } from "@nyzhi/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
/** What the mock reports for each explorer's one request. */
const EXPLORER_USAGE = { inputTokens: 4000, outputTokens: 800 };

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-e2e-agent-usage-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function savedSession(): Promise<{ meta: { id: string } }> {
  const [sessionFile] = await readdir(join(home, "data", "sessions"));
  return JSON.parse(await readFile(join(home, "data", "sessions", sessionFile!), "utf8"));
}

describe("per-subagent usage in nyz export", () => {
  it("shows each explorer's tokens and cost in the markdown and JSON exports", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [1, 2].map((n) => ({
              name: "spawn_agent",
              arguments: { agent_type: "explorer", message: `look at area ${n}` },
            })),
          },
        },
        { match: { system: "You are Scout" }, response: { text: "area explored", usage: EXPLORER_USAGE } },
        {
          match: { system: LEAD, lastIsToolResult: true, anyMessage: "agent_nickname" },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD }, response: { text: "Everything mapped." } },
      ],
    });
    const env = anthropicEnv(mock, home);
    const result = await runNyz(["exec", "--json", "--full-auto", "map the code"], { cwd: workspace, env });
    expect(result.code).toBe(0);
    const explorerRequests = mock.requests.filter((request) => request.system?.includes("You are Scout"));
    expect(explorerRequests).toHaveLength(2);
    const spent: Usage = { ...EXPLORER_USAGE, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const costUsd = computeCost(findModel(explorerRequests[0]!.model ?? "", "anthropic")!, spent);
    // Core sums the run once: each usage line carries the session's total so far, the last line the same.
    const usageLines = lines(result.stdout).filter((event) => event.type === "usage");
    const inputs = usageLines.map((event) => event.input_tokens as number);
    const runningTotals = inputs.map((_, index) => inputs.slice(0, index + 1).reduce((a, b) => a + b, 0));
    expect(usageLines.map((event) => (event.session_total as { input_tokens: number }).input_tokens)).toEqual(
      runningTotals,
    );
    const last = lines(result.stdout).at(-1)!;
    expect(last.type).toBe("turn_complete");
    expect(last.session_total).toEqual(usageLines.at(-1)!.session_total);
    expect(last.input_tokens).toBe(runningTotals.at(-1));
    const completed = lines(result.stdout).filter((event) => event.type === "subagent_completed");
    expect(completed.map((event) => [event.input_tokens, event.output_tokens, event.cost_usd])).toEqual([
      [4000, 800, costUsd],
      [4000, 800, costUsd],
    ]);

    const id = (await savedSession()).meta.id.slice(0, 8);
    expect((await runNyz(["export", id, "-o", "out.md"], { cwd: workspace, env })).code).toBe(0);
    const markdown = await readFile(join(workspace, "out.md"), "utf8");
    const headed = [
      ...markdown.matchAll(/^# Subagent (\S+) \(explorer, depth 1, completed: area explored\)\n\n(.*)$/gm),
    ];
    expect(headed.map((match) => match[2])).toEqual([
      `tokens: 4000 input / 800 output, cost: $${costUsd.toFixed(4)}`,
      `tokens: 4000 input / 800 output, cost: $${costUsd.toFixed(4)}`,
    ]);

    expect(
      (await runNyz(["export", id, "--format", "json", "-o", "out.json"], { cwd: workspace, env })).code,
    ).toBe(0);
    const exported = JSON.parse(await readFile(join(workspace, "out.json"), "utf8")) as {
      agents: Record<string, Record<string, unknown>>;
    };
    const agents = Object.values(exported.agents);
    expect(agents).toHaveLength(2);
    for (const agent of agents) {
      expect(agent).toMatchObject({
        role: "explorer",
        usage: spent,
        costUsd,
        subtreeUsage: spent,
        subtreeCostUsd: costUsd,
      });
    }
    expect(headed.map((match) => match[1]).sort()).toEqual(agents.map((agent) => agent.nickname).sort());
  });
});

describe("permission_request hooks for a subagent's call", () => {
  it("receive the asking child's agent_id, nickname, role and depth", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "write the notes" } }] },
        },
        {
          match: { system: NOT_LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "write", arguments: { file_path: "notes.txt", content: "from the child\n" } },
            ],
          },
        },
        { match: { system: NOT_LEAD, lastIsToolResult: true }, response: { text: "notes written" } },
        {
          match: { system: LEAD, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: {} }] },
        },
        { match: { system: LEAD }, response: { text: "done" } },
      ],
    });
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    const received = join(workspace, "permission-request.json");
    await writeFile(
      join(workspace, ".nyzhi", "config.toml"),
      `[[agent.hooks]]\nevent = "permission_request"\ncommand = "cat > '${received}'; printf '{\\"decision\\":\\"allow\\"}'"\n`,
    );
    // --trust-project: a project's hooks run only in a trusted project.
    const result = await runNyz(["exec", "--json", "--trust", "off", "--trust-project", "make notes"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const spawned = lines(result.stdout).find((event) => event.type === "subagent_spawned")!;
    expect(JSON.parse(await readFile(received, "utf8"))).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "write",
      agent_id: spawned.agent_id,
      nickname: spawned.nickname,
      role: "default",
      depth: 1,
    });
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("from the child\n");
  });
});
