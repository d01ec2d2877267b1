import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-e2e-roles-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function write(path: string, text: string) {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

describe("nyz agents", () => {
  it("lists every role with its source, enabled state and overrides, and reports skipped definitions", async () => {
    await write(
      join(home, "config", "agents.json"),
      JSON.stringify({
        shared: { description: "global shared", prompt: "g" },
        helper: { description: "Helps", prompt: "h" },
      }),
    );
    await write(
      join(workspace, ".nyzhi", "agents.json"),
      JSON.stringify({
        shared: { description: "project shared", prompt: "p" },
        broken: { description: "no prompt" },
      }),
    );
    await write(
      join(workspace, ".nyzhi", "agents", "helper.md"),
      "---\ndescription: file helper\n---\nYou help.\n",
    );
    await write(join(workspace, ".nyzhi", "config.toml"), "[agent.agents.roles.tester]\nenabled = false\n");
    const env = { NYZHI_HOME: home };

    const text = await runNyz(["agents"], { cwd: workspace, env });
    expect(text.code).toBe(0);
    expect(text.stderr).toContain(
      "warning: project agents.json .nyzhi/agents.json: agent 'broken' skipped: missing description or prompt",
    );
    const line = (name: string) =>
      text.stdout
        .split("\n")
        .find((entry) => entry.startsWith(`${name} `))!
        .replace(/\s+/g, " ");
    expect(line("shared")).toBe(
      `shared enabled agents.json (project) .nyzhi/agents.json [overrides agents.json (global) ${join(home, "config", "agents.json")}]`,
    );
    expect(line("helper")).toBe(
      `helper enabled file (project) .nyzhi/agents/helper.md [overrides agents.json (global) ${join(home, "config", "agents.json")}]`,
    );
    expect(line("tester")).toBe("tester disabled config (project) [overrides built-in]");
    expect(line("architecture-expert")).toBe("architecture-expert enabled built-in [read-only]");

    const json = await runNyz(["agents", "--json"], { cwd: workspace, env });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { subagentsEnabled: boolean; roles: Record<string, unknown>[] };
    expect(parsed.subagentsEnabled).toBe(true);
    expect(parsed.roles.find((role) => role.name === "shared")).toEqual({
      name: "shared",
      description: "project shared",
      enabled: true,
      readOnly: false,
      source: {
        kind: "agents.json",
        scope: "project",
        path: ".nyzhi/agents.json",
        label: "agents.json (project) .nyzhi/agents.json",
      },
      overrides: [`agents.json (global) ${join(home, "config", "agents.json")}`],
    });
    expect(parsed.roles.find((role) => role.name === "tester")).toMatchObject({ enabled: false });
    expect(parsed.roles.map((role) => role.name)).toEqual(
      expect.arrayContaining([
        "code-analyzer",
        "doc-writer",
        "file-organizer",
        "tester",
        "architecture-expert",
        "general-purpose",
      ]),
    );
  });

  it("says when the whole subagent system is off", async () => {
    await write(join(workspace, ".nyzhi", "config.toml"), "[agent.agents]\nenabled = false\n");
    const result = await runNyz(["agents"], { cwd: workspace, env: { NYZHI_HOME: home } });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(
      "Subagents are disabled (agent.agents.enabled = false): no role can be spawned.",
    );
  });
});

describe("task through nyz exec", () => {
  it("delegates to two specialists in parallel, each seeing only its description, and reports their answers and usage", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "task", arguments: { subagent_type: "code-analyzer", description: "Review src/a.ts" } },
              { name: "task", arguments: { subagent_type: "tester", description: "Test src/a.ts" } },
            ],
            usage: { inputTokens: 10, outputTokens: 1 },
          },
        },
        {
          match: { system: "You are Lens" },
          response: { text: "no issues", delayMs: 300, usage: { inputTokens: 1000, outputTokens: 100 } },
        },
        {
          match: { system: "You are Probe" },
          response: { text: "4 tests pass", delayMs: 300, usage: { inputTokens: 1000, outputTokens: 100 } },
        },
        {
          match: { system: LEAD, lastIsToolResult: true },
          response: { text: "Reviewed and tested.", usage: { inputTokens: 10, outputTokens: 1 } },
        },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "review and test src/a.ts"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const lead = mock.requests.filter((request) => request.system?.includes(LEAD));
    expect(lead[0]!.system).toContain("## Playbooks");
    const children = mock.requests.filter((request) => !request.system?.includes(LEAD));
    expect(children.map((request) => request.messages)).toEqual(
      expect.arrayContaining([
        [{ role: "user", text: "Review src/a.ts" }],
        [{ role: "user", text: "Test src/a.ts" }],
      ]),
    );
    const [first, second] = children;
    expect(first!.startedAt < second!.endedAt! && second!.startedAt < first!.endedAt!).toBe(true);
    expect(
      lead
        .at(-1)!
        .messages.at(-1)!
        .toolResults!.map((entry) => entry.content),
    ).toEqual(["no issues", "4 tests pass"]);
    // The discarded children's tokens are still counted: 2 lead requests + 2 children.
    expect(events.at(-1)).toMatchObject({
      type: "turn_complete",
      reason: "completed",
      input_tokens: 2020,
      output_tokens: 202,
    });
  });
});
