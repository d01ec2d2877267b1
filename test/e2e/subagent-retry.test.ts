import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, Rule } from "@nyzhi/mock-llm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * A provider retry belongs to the agent whose request it was: a subagent's 429 is shown, in
 * `nyz exec --json` and in the app, as that subagent's — not the lead's (children share the lead's
 * model objects, so a callback on the model could not tell them apart; the retry is a stream part).
 */
const LEAD = "You are Nizzy";
const SCOUT = "You are Scout";

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-e2e-subagent-retry-"));
  await mkdir(join(workspace, ".git"));
  home = await tempHome();
  await mkdir(join(home, "config"), { recursive: true });
  // A short backoff (the retry is under test, not its wait); spawning and waiting need no approval.
  await writeFile(
    join(home, "config", "config.toml"),
    '[agent.retry]\ninitial_backoff_ms = 20\nmax_backoff_ms = 100\n\n[agent.trust]\nauto_approve = ["spawn_agent", "wait"]\n',
  );
});
closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

/** The lead spawns one explorer and waits; the explorer's first request is rate limited once. */
function rules(prompt: string): Rule[] {
  return [
    {
      match: { system: LEAD, lastUser: prompt, lastIsToolResult: false },
      times: 1,
      response: {
        toolCalls: [{ name: "spawn_agent", arguments: { agent_type: "explorer", message: "look around" } }],
      },
    },
    {
      match: { system: LEAD, lastUser: prompt, lastIsToolResult: true },
      times: 1,
      response: { toolCalls: [{ name: "wait", arguments: { mode: "all", timeout_ms: 60_000 } }] },
    },
    { match: { system: LEAD }, response: { text: "All looked at." } },
    {
      match: { system: SCOUT },
      times: 1,
      response: { fault: { type: "status", status: 429, message: "slow down" } },
    },
    { match: { system: SCOUT }, response: { text: "nothing odd here" } },
  ];
}

describe("a subagent's rate-limited request", () => {
  it("is a retry line of that subagent in nyz exec --json, and the lead has none", async () => {
    mock = await startScenario({ rules: rules("look around the project") });
    const result = await runNyz(["exec", "--json", "look around the project"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const spawned = events.find((event) => event.type === "subagent_spawned");
    expect(spawned).toBeDefined();
    const retries = events.filter((event) => event.type === "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ agent_id: spawned?.agent_id, depth: 1, attempt: 1 });
    expect(retries[0]?.nickname).toBe(spawned?.nickname);
    expect(String(retries[0]?.reason)).toMatch(/slow down|429|rate/i);
  });

  it.skipIf(!hasTmux())(
    "is shown in the app's transcript under that subagent's name",
    { timeout: 120_000 },
    async () => {
      const prompt = "look around the project";
      mock = await startScenario({ rules: rules(prompt) });
      terminal = await TmuxTerminal.start({
        columns: 120,
        rows: 40,
        cwd: workspace,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: workspace,
          NYZHI_LOG: "silent",
          ...anthropicEnv(mock, home),
        },
      });
      await terminal.startNyz();
      await terminal.waitForText("Ask anything");
      await terminal.typeLine(prompt);
      const screen = await terminal.waitForText("All looked at.", 60_000);
      const retryLine = screen.split("\n").find((line) => /rate limited, retrying in/.test(line));
      expect(retryLine, screen).toBeDefined();
      // The child's label ("[Nickname] "), not the lead's (which has none).
      expect(retryLine).toMatch(/\[[^\]]+\] rate limited, retrying in/);
      const nickname = retryLine?.match(/\[([^\]]+)\]/)?.[1] ?? "";
      expect(nickname).not.toBe("");
      expect(screen.split("\n").filter((line) => line.includes(nickname)).length).toBeGreaterThan(1);
      await terminal.typeLine("/exit");
      await terminal.waitFor((text) => text.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
    },
  );
});
