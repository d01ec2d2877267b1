import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import {
  closeAfterEach,
  LEAD_SYSTEM,
  leadRequests,
  openApp,
  quitApp,
  reasoningEffort,
} from "./helpers/app-session.js";
import { anthropicEnv, openaiEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, type TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * The commands of issue 34 through the built `nyz` in tmux against the mock: /retry, /search,
 * /notify's bell, /handoff then /resume-work, /map, /think budget on the OpenAI wire, and every
 * command of the list answering as itself (never "Unknown command").
 */
let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

const open = (env: Record<string, string>, cwd: string, args: string[] = []) =>
  openApp(env, cwd, args, {
    onStart: (term) => {
      terminal = term;
    },
  });

const count = (screen: string, text: string) => screen.split(text).length - 1;

describe.skipIf(!hasTmux())("the app's commands (issue 34)", { timeout: 240_000 }, () => {
  it("/retry sends the last prompt again; /search finds an earlier answer, ctrl+n moves, esc clears", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD_SYSTEM }, response: { text: "The codeword is PELICAN-42." } }],
    });
    const workspace = await tempProject("nyzhi-e2e-retry-");
    const term = await open(anthropicEnv(mock, await tempHome()), workspace);

    await term.typeLine("tell me the codeword");
    await term.waitForText("The codeword is PELICAN-42.");
    await term.typeLine("/retry");
    await term.waitFor(() => leadRequests(mock!).length >= 2);
    await term.waitForText("[retry] tell me the codeword");
    await term.waitFor((screen) => count(screen, "The codeword is PELICAN-42.") >= 2);
    const [first, second] = leadRequests(mock);
    expect(second?.messages.at(-1)?.text).toBe("tell me the codeword");
    expect(second?.messages.at(-1)?.text).toBe(first?.messages.at(-1)?.text);

    await term.typeLine("/search pelican");
    await term.waitFor(
      (screen) => /Search "pelican" 1\/2 · assistant: The codeword is PELICAN-42\./.test(screen),
      20_000,
      "screen",
    );
    await term.keys("C-n");
    await term.waitFor((screen) => screen.includes('Search "pelican" 2/2'), 20_000, "screen");
    await term.keys("Escape");
    await term.waitFor((screen) => !screen.includes('Search "pelican"'), 20_000, "screen");
    await quitApp(term);
  });

  it("/notify bell rings (BEL) when a turn longer than the threshold ends, not after a short one", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD_SYSTEM, lastUser: "slow" },
          response: { text: "Slow answer.", delayMs: 5000 },
        },
        { match: { system: LEAD_SYSTEM }, response: { text: "Quick answer." } },
      ],
    });
    const workspace = await tempProject("nyzhi-e2e-notify-");
    const term = await open(anthropicEnv(mock, await tempHome()), workspace);
    const output = join(workspace, "pane-output.bin");
    await term.recordOutput(output);
    const bells = async () => count(await readFile(output, "latin1").catch(() => ""), "\x07");

    await term.typeLine("/notify bell on after 3 s");
    await term.waitForText("Notify: bell on · desktop off · after turns longer than 3 s");
    await term.typeLine("quick one");
    await term.waitForText("Quick answer.");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await bells()).toBe(0);
    await term.typeLine("slow one");
    await term.waitForText("Slow answer.");
    const started = Date.now();
    while ((await bells()) === 0 && Date.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await bells()).toBe(1);

    await term.typeLine("/notify bell off");
    await term.waitForText("Notify: bell off");
    await term.typeLine("slow two");
    await term.waitFor((screen) => count(screen, "Slow answer.") >= 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await bells()).toBe(1);
    await quitApp(term);
  });

  it("/handoff writes the note; /resume-work in a new session carries the todos over", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD_SYSTEM, lastUser: { regex: "^start the parser$" }, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "todowrite",
                arguments: {
                  todos: [
                    { id: "parse", content: "Write the TOML parser", status: "in_progress" },
                    { id: "tests", content: "Add parser tests", status: "pending" },
                  ],
                },
              },
            ],
          },
        },
        {
          match: { system: LEAD_SYSTEM, lastUser: { regex: "^start the parser$" }, lastIsToolResult: true },
          response: { text: "Started. Should the parser accept tabs?" },
        },
        { match: { system: LEAD_SYSTEM }, response: { text: "Picking the work up." } },
      ],
    });
    const workspace = await tempProject("nyzhi-e2e-handoff-");
    const term = await open(anthropicEnv(mock, await tempHome()), workspace);
    await term.typeLine("start the parser");
    await term.waitForText("Should the parser accept tabs?");
    await term.typeLine("/handoff");
    await term.waitForText("Handoff written: .nyzhi/handoff-");
    const [name] = (await readdir(join(workspace, ".nyzhi"))).filter((file) => file.startsWith("handoff-"));
    const note = await readFile(join(workspace, ".nyzhi", name!), "utf8");
    expect(name).toMatch(/^handoff-\d{8}-\d{6}\.md$/);
    expect(note).toContain(`- Project: ${workspace}`);
    expect(note).toContain("- Branch: ");
    expect(note).toMatch(/- Model: anthropic\//);
    expect(note).toContain("- [in_progress] Write the TOML parser (id parse)");
    expect(note).toContain("- [pending] Add parser tests (id tests)");
    expect(note).toContain("- user: start the parser");
    expect(note).toContain("## Open questions\n- Should the parser accept tabs?");

    await term.typeLine("/clear");
    await term.waitForText("New session.");
    await term.typeLine("/todo");
    await term.waitForText("The todo list is empty.");
    await term.typeLine("/resume-work");
    await term.waitForText("2 todo(s) restored");
    await term.waitForText("Picking the work up.");
    const resumed = leadRequests(mock).at(-1)!;
    expect(resumed.messages.at(-1)?.text).toContain("Resume the work described in this handoff note");
    expect(resumed.messages.at(-1)?.text).toContain("Write the TOML parser");
    await term.typeLine("/todo");
    await term.waitFor(
      (screen) => screen.includes("Write the TOML parser") && screen.includes("Add parser tests"),
    );
    await quitApp(term);
  });

  it("/map starts four subagents in parallel and writes the four files of .nyzhi/map/", async () => {
    const documents = {
      "technology stack": "STACK-FINDINGS TypeScript on Node",
      architecture: "ARCHITECTURE-FINDINGS one package",
      conventions: "CONVENTIONS-FINDINGS kebab-case files",
      concerns: "CONCERNS-FINDINGS no tests",
    };
    mock = await startScenario({
      rules: Object.entries(documents).map(([focus, text]) => ({
        match: { lastUser: `Map this codebase: the ${focus}` },
        // Slow enough that the four overlap only if they run together.
        response: { text, delayMs: 1500 },
      })),
      fallback: { text: "unexpected request" },
    });
    const workspace = await tempProject("nyzhi-e2e-map-");
    const term = await open(anthropicEnv(mock, await tempHome()), workspace);
    await term.typeLine("/map");
    await term.waitForText("Codebase map written:", 90_000);
    const mapped = mock.requests.filter((request) =>
      request.messages.some((message) => message.text?.startsWith("Map this codebase")),
    );
    expect(mapped).toHaveLength(4);
    // Parallel: every subagent's first request arrived before any of them was answered.
    const firstAnswered = Math.min(...mapped.map((request) => request.endedAt ?? Number.POSITIVE_INFINITY));
    for (const request of mapped) expect(request.startedAt).toBeLessThan(firstAnswered);
    for (const request of mapped) expect(request.toolsOffered).not.toContain("write");
    const files = {
      "STACK.md": "STACK-FINDINGS",
      "ARCHITECTURE.md": "ARCHITECTURE-FINDINGS",
      "CONVENTIONS.md": "CONVENTIONS-FINDINGS",
      "CONCERNS.md": "CONCERNS-FINDINGS",
    };
    for (const [file, text] of Object.entries(files))
      expect(await readFile(join(workspace, ".nyzhi", "map", file), "utf8")).toContain(text);
    await quitApp(term);
  });

  it("/think budget 8000 reaches the OpenAI request as an effort near the budget", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD_SYSTEM }, response: { text: "Answered." } }],
    });
    const workspace = await tempProject("nyzhi-e2e-think-budget-openai-");
    const env = openaiEnv(mock, await tempHome());
    const term = await open(env, workspace, ["--model", "openai/gpt-5.2"]);
    await term.typeLine("/think budget 8000");
    await term.waitForText("Thinking: on (8000 tokens)");
    await term.typeLine("first question");
    await term.waitFor(() => leadRequests(mock!).length >= 1);
    await term.typeLine("/think budget 2048");
    await term.waitForText("Thinking: on (2048 tokens)");
    await term.typeLine("second question");
    await term.waitFor(() => leadRequests(mock!).length >= 2);
    const [first, second] = leadRequests(mock).map((request) => request.body);
    expect(reasoningEffort(first)).toBe("medium");
    expect(reasoningEffort(second)).toBe("low");
    await quitApp(term);
  });

  it("answers every command of the issue's list as itself: none is unknown", async () => {
    mock = await startScenario({ rules: [{ response: { text: "Done as asked." } }] });
    const workspace = await tempProject("nyzhi-e2e-commands-");
    const term = await open({ ...anthropicEnv(mock, await tempHome()), EDITOR: "true" }, workspace);
    const typed: [string, string][] = [
      ["/status", "cached read"],
      ["/search nothing-here", 'Search "nothing-here": no match'],
      ["/editor", "from the editor"],
      ["/notify desktop off", "Notify: bell on"],
      ["/stop", "Nothing was running"],
      ["/clear queue", "Cleared 0 queued message(s)."],
      ["/learn", "/learn <name> saves one"],
      ["/commands", "Add one: write .nyzhi/commands/"],
      ["/index status", "ode index"],
      ["/retry", "Nothing to retry"],
      ["/quick rename a variable", "Done as asked."],
      ["/refactor the parser", "Done as asked."],
      ["/init-deep", "Done as asked."],
      ["/verify", "No checks detected"],
      ["/team 2 write docs", "Done as asked."],
      ["/team", "in no team yet"],
      ["/handoff", "Handoff written"],
      ["/resume-work", "todo(s) restored"],
      ["/learn saved-skill", "Saved the skill saved-skill"],
    ];
    for (const [command, answer] of typed) {
      const before = count(await term.history(), answer);
      await term.typeLine(command);
      await term.waitFor((screen) => count(screen, answer) > before, 30_000);
    }
    await term.typeLine("/connect");
    await term.waitForText("Connect a provider (now anthropic)");
    await term.keys("Escape");
    const all = await term.history();
    expect(all).not.toContain("Unknown command");
    expect(all).not.toContain("not in the app yet");
    await term.typeLine("/help");
    const help = await term.waitForText("Commands:");
    for (const name of [
      "status",
      "retry",
      "search",
      "editor",
      "notify",
      "stop",
      "learn",
      "commands",
      "connect",
      "handoff",
      "resume-work",
      "init-deep",
      "map",
      "quick",
      "refactor",
      "verify",
      "index",
      "team",
    ])
      expect(help).toContain(`/${name}`);
    await quitApp(term);
  });
});
