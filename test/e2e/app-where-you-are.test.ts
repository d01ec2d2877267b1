import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { appTerminalEnv } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Issue 29, "seeing where you are": the header the app writes when it opens, the way back it
 * prints on exit, and how full the context window is (with a warning before compaction), in a
 * real terminal through the built `nyz` against the mock model.
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";
const OPEN = /[\w.-]+ · trust off/;

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
const cleanup: string[] = [];

afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  await mock?.close();
  mock = undefined;
  for (const path of cleanup.splice(0)) await rm(path, { recursive: true, force: true, maxRetries: 5 });
});

/** A git project, a fresh home (with `globalConfig` as its config.toml) and a terminal in the project. */
async function openTerminal(options: { globalConfig?: string } = {}) {
  const project = await tempProject("nyzhi-e2e-where-");
  execFileSync("git", ["init", "-q"], { cwd: project });
  const home = await tempHome();
  cleanup.push(project, home);
  if (options.globalConfig) {
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(join(home, "config", "config.toml"), options.globalConfig);
  }
  const term = await TmuxTerminal.start({
    cwd: project,
    columns: 120,
    rows: 40,
    env: appTerminalEnv(project, anthropicEnv(mock as MockLlm, home)),
  });
  terminal = term;
  return { term, project, home };
}

async function exitApp(term: TmuxTerminal): Promise<string> {
  await term.typeLine("/exit");
  return term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000);
}

describe.skipIf(!hasTmux())("where you are, in a terminal", { timeout: 120_000 }, () => {
  it("opens with a header, once; ends with the session id, how to continue it, and its tokens and cost", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD },
          response: { text: "Hello there.", usage: { inputTokens: 1200, outputTokens: 34 } },
        },
      ],
    });
    const { term } = await openTerminal();
    await term.startNyz();
    await term.waitForText(READY);
    const opened = await term.waitFor((screen) => OPEN.test(screen) && screen.includes("✻ nyzhi"));
    // Version, folder (the home is the project here: "~") and its trust, provider/model, trust mode, tips.
    expect(opened).toMatch(/✻ nyzhi v\d+\.\d+\.\d+/);
    expect(opened).toContain("~ (not trusted: /trust on)");
    expect(opened).toMatch(/anthropic\/[\w.-]+ · trust off · sandbox workspace-write/);
    expect(opened).toContain("@ files · / commands");

    await term.typeLine("hi");
    await term.waitForText("Hello there.");
    // Written once: a turn does not repeat it.
    expect((await term.history()).match(/✻ nyzhi v/g)).toHaveLength(1);

    const after = await exitApp(term);
    const id = /Session (\S+) saved · 1\.2k tokens · \$\d+\.\d{3}/.exec(after)?.[1];
    expect(id).toBeDefined();
    expect(after).toContain(`Continue it: nyz -c (the newest here) · nyz -s ${id}`);

    // The way back works: `nyz -s <id>` shows the earlier turn, and the header again.
    await term.startNyz(["-s", id as string]);
    const resumed = await term.waitFor((screen) => OPEN.test(screen) && screen.includes("Hello there."));
    expect(resumed).toContain("✻ nyzhi v");
    await exitApp(term);
  });

  it("shows how full the model's window is in the footer and warns before compaction", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD }, response: { text: "Noted." } }],
    });
    // A small window, so the system prompt and tools fill a known share and one long prompt nears 85 %.
    const { term } = await openTerminal({ globalConfig: "[provider.anthropic]\ncontext_window = 10000\n" });
    await term.startNyz();
    const opened = await term.waitFor((screen) => OPEN.test(screen) && /ctx \d+%/.test(screen));
    const before = Number(/ctx (\d+)%/.exec(opened)?.[1]);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(75);
    expect(opened).not.toContain("compacts at");

    // Enough text (about 4 characters a token, "word " is 5) to fill the window to about 80 %.
    const words = Math.ceil(((80 - before) * 100 * 4) / 5);
    await term.typeLine(`remember ${"word ".repeat(words).trim()}`);
    await term.waitForText("Noted.");
    const warned = await term.waitFor(
      (screen) => /ctx \d+% · compacts at 85%/.test(screen) && /Context \d+% full: at 85%/.test(screen),
    );
    const after = Number(/ctx (\d+)% · compacts at 85%/.exec(warned)?.[1]);
    expect(after).toBeGreaterThanOrEqual(75);
    // The model got the prompt (nothing was compacted away: it is under the compaction point).
    const lead = mock.requests.filter((request) => request.system?.includes(LEAD)).at(-1);
    expect(lead?.messages.at(-1)?.text.startsWith("remember word word")).toBe(true);
    await exitApp(term);
  });

  it("/cost lists the session's tokens and cost per agent, per subtree and per model", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastUser: "count it", lastIsToolResult: false },
          times: 1,
          response: {
            toolCalls: [
              { name: "spawn_agent", arguments: { agent_type: "explorer", message: "child-task: count" } },
            ],
            usage: { inputTokens: 1000, outputTokens: 50 },
          },
        },
        {
          match: { system: LEAD, lastUser: "count it", lastIsToolResult: true },
          times: 1,
          response: {
            toolCalls: [{ name: "wait", arguments: { mode: "all", timeout_ms: 60_000 } }],
            usage: { inputTokens: 1000, outputTokens: 50 },
          },
        },
        {
          match: { system: LEAD, lastUser: "count it" },
          response: { text: "Counted.", usage: { inputTokens: 1000, outputTokens: 50 } },
        },
        {
          match: { lastUser: "child-task: count" },
          response: { text: "child done", usage: { inputTokens: 2000, outputTokens: 100 } },
        },
      ],
    });
    const { term } = await openTerminal({
      globalConfig: '[agent.trust]\nauto_approve = ["spawn_agent", "wait"]\n',
    });
    await term.startNyz();
    await term.waitFor((screen) => OPEN.test(screen));
    await term.typeLine("count it");
    // The turn has ended (its footer line), so its figures are counted.
    await term.waitFor((screen) => screen.includes("Counted.") && /─ 3 steps/.test(screen));
    await term.typeLine("/cost");
    const shown = await term.waitFor((screen) => screen.includes("By model:"));
    // 3 lead requests of 1050 tokens, one explorer request of 2100.
    expect(shown).toContain("Session: 5.3k tokens");
    expect(shown).toMatch(/lead\s+anthropic\/[\w.-]+\s+3\.1k tokens · \$\d+\.\d{3}/);
    expect(shown).toMatch(/[A-Z][a-z]+ \(explorer\)\s+anthropic\/[\w.-]+\s+2\.1k tokens/);
    expect(shown).toMatch(/By model:\n\s+anthropic\/[\w.-]+\s+/);
    // The child got its task; the lead's figures are what the mock reported.
    expect(
      mock.requests.some((request) => request.messages.some((m) => m.text.includes("child-task: count"))),
    ).toBe(true);
    await exitApp(term);
  });
});
