import { execFileSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, RecordedRequest } from "@nyzhi/mock-llm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeAfterEach, freshProjectAndHome } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * The interactive app in a real terminal (tmux), through the built `nyz`, against the mock LLM.
 * Set NYZHI_WRITE_APP_CAPTURE=<file> to save the app from its header to the approval dialog (docs/app-capture.txt).
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  ({ workspace, home } = await freshProjectAndHome("nyzhi-e2e-app-"));
});
closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

async function openTerminal(
  scenario: Parameters<typeof startScenario>[0],
  size: { columns?: number; rows?: number } = {},
): Promise<TmuxTerminal> {
  mock = await startScenario(scenario);
  terminal = await TmuxTerminal.start({
    ...size,
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: workspace,
      NYZHI_LOG: "silent",
      ...anthropicEnv(mock, home),
    },
  });
  return terminal;
}

/** The lead's requests (not title or other side requests), in order. */
function leadRequests(): RecordedRequest[] {
  return (mock?.requests ?? []).filter((request) => request.system?.includes(LEAD));
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Quits the app with /exit and waits for the shell's prompt. */
async function exitApp(term: TmuxTerminal): Promise<string> {
  await term.typeLine("/exit");
  return term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

describe.skipIf(!hasTmux())("nyz, the interactive app in a terminal", { timeout: 120_000 }, () => {
  it("streams an answer, and nyz -c shows the earlier transcript", async () => {
    const term = await openTerminal({
      rules: [
        { match: { system: LEAD }, response: { text: "Hello from the **mock** model.", chunkDelayMs: 20 } },
      ],
    });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("say hello");
    await term.waitForText("Hello from the mock model.");
    await exitApp(term);

    await term.startNyz(["-c"]);
    await term.waitForText(READY);
    const screen = await term.waitForText("Hello from the mock model.");
    expect(screen).toContain("› say hello");
    await exitApp(term);
  });

  it("asks before an edit with its diff: y applies it; n leaves the file and the model reads the reason", async () => {
    await writeFile(join(workspace, "notes.txt"), "colour: blue\n");
    const term = await openTerminal({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "edit",
                arguments: { file_path: "notes.txt", old_string: "blue", new_string: "green" },
              },
            ],
          },
        },
        { match: { system: LEAD, lastIsToolResult: true }, response: { text: "Finished with the notes." } },
      ],
    });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("make it green");
    const dialog = await term.waitForText("Allow once (y)");
    expect(dialog).toContain("lead wants to use edit");
    expect(dialog).toContain("notes.txt +1 -1");
    // Whole lines from the file, not only the replaced words.
    expect(dialog).toMatch(/1 - colour: blue/);
    expect(dialog).toMatch(/1 \+ colour: green/);
    await term.keys("y");
    await term.waitForText("Finished with the notes.");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("colour: green\n");
    await exitApp(term);

    await writeFile(join(workspace, "notes.txt"), "colour: blue\n");
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("make it green again");
    await term.waitForText("Allow once (y)");
    await term.keys("n");
    await term.waitForText("Reason for denying");
    await term.typeLine("keep it blue");
    await until(() =>
      leadRequests().some((request) => JSON.stringify(request.messages).includes("keep it blue")),
    ).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; screen:\n${await term.screen()}`);
    });
    const denied = leadRequests().at(-1)!;
    const results = denied.messages.flatMap((message) => message.toolResults ?? []);
    expect(results.at(-1)?.content).toContain("denied by the user: keep it blue");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("colour: blue\n");
    await exitApp(term);
  });

  it("draws a conversation: markdown, tool rows, the approval dialog (the README's capture)", async () => {
    await writeFile(join(workspace, "notes.txt"), "colour: blue\n");
    const term = await openTerminal(
      {
        rules: [
          {
            match: { system: LEAD, lastUser: "what is in notes.txt", lastIsToolResult: false },
            response: { toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }] },
          },
          {
            match: { system: LEAD, lastUser: "what is in notes.txt", lastIsToolResult: true },
            response: {
              text: "`notes.txt` holds **one setting**:\n\n- `colour`: blue\n\nShall I change it?",
            },
          },
          {
            match: { system: LEAD, lastUser: "make it green", lastIsToolResult: false },
            response: {
              toolCalls: [
                {
                  name: "edit",
                  arguments: { file_path: "notes.txt", old_string: "blue", new_string: "green" },
                },
              ],
            },
          },
          { match: { system: LEAD }, response: { text: "Done." } },
        ],
      },
      { columns: 80, rows: 32 },
    );
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("what is in notes.txt?");
    await term.waitForText("Shall I change it?");
    await term.typeLine("make it green");
    const screen = await term.waitFor(
      (text) => text.includes("awaiting approval") && text.includes("Deny (n)"),
    );
    expect(screen).toContain("✓ read notes.txt");
    expect(screen).toContain("• colour: blue");
    if (process.env.NYZHI_WRITE_APP_CAPTURE) {
      // The scrollback too, from the command line on: the header is above the screen's first row.
      const lines = (await term.history()).trimEnd().split("\n");
      lines[0] = "$ nyz";
      await writeFile(process.env.NYZHI_WRITE_APP_CAPTURE, `${lines.join("\n")}\n`);
    }
    await term.keys("n");
    await term.keys("Escape");
    await term.waitForText("Done.");
    await exitApp(term);
  });

  it("Esc stops a slow stream within 200 ms and the next prompt works", async () => {
    const chunks = Array.from({ length: 60 }, (_, index) => `word${index} `);
    const term = await openTerminal({
      rules: [
        {
          match: { system: LEAD, lastUser: "tell a long story" },
          response: { text: chunks, chunkDelayMs: 150 },
        },
        { match: { system: LEAD }, response: { text: "Short answer." } },
      ],
    });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("tell a long story");
    await term.waitForText("word2");
    const slow = leadRequests().at(-1)!;
    expect(slow.endedAt).toBeUndefined();
    const escSentAt = Date.now();
    await term.keys("Escape");
    await until(() => slow.endedAt !== undefined, 5_000);
    // The connection closed (nyz aborted the request) within 200 ms of the key being sent.
    expect(slow.endedAt! - escSentAt).toBeLessThan(200);
    await term.waitForText("enter send");
    await term.typeLine("and now?");
    await term.waitForText("Short answer.");
    expect(leadRequests().at(-1)!.messages.at(-1)?.text).toContain("and now?");
    await exitApp(term);
  });

  it("delivers a prompt typed while busy, and /model changes the next request's model", async () => {
    const chunks = Array.from({ length: 12 }, (_, index) => `part${index} `);
    const term = await openTerminal({
      rules: [
        {
          match: { system: LEAD, lastUser: "first question" },
          response: { text: chunks, chunkDelayMs: 100 },
        },
        { match: { system: LEAD }, response: { text: "Got it." } },
      ],
    });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("first question");
    await term.waitForText("part1");
    await term.typeLine("second thought");
    await term.waitForText("queued: second thought");
    await until(() =>
      leadRequests().some((request) => JSON.stringify(request.messages).includes("second thought")),
    );
    await term.waitForText("Got it.");

    await term.typeLine("/model other-model");
    await term.waitForText("other-model");
    const before = leadRequests().length;
    await term.typeLine("which model?");
    await until(() => leadRequests().length > before);
    expect(leadRequests().at(-1)!.model).toBe("other-model");
    await term.waitFor((screen) => screen.split("Got it.").length >= 3);
    await exitApp(term);
  });

  it("/exit leaves the terminal restored: the shell's prompt, echo and canonical mode", async () => {
    const term = await openTerminal({ rules: [{ response: { text: "ok" } }] });
    await term.startNyz();
    await term.waitForText(READY);
    // While it runs, the cursor is hidden (ink draws its own); after /exit it is shown again.
    expect(await term.tmux("display-message", "-p", "-t", term.target, "#{cursor_flag}")).toBe("0\n");
    await exitApp(term);
    expect(await term.tmux("display-message", "-p", "-t", term.target, "#{cursor_flag}")).toBe("1\n");
    await term.typeLine("stty -a");
    const modes = await term.waitForText("icanon");
    expect(modes).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(modes).toMatch(/(^|\s)echo(\s|$)/m);
    expect(modes).not.toMatch(/-icanon|-echo\s/);
  });
});

/** The pid of the `nyz` running in the pane's shell. */
async function nyzPid(term: TmuxTerminal): Promise<number> {
  const shell = (await term.tmux("display-message", "-p", "-t", term.target, "#{pane_pid}")).trim();
  return Number(execFileSync("pgrep", ["-P", shell], { encoding: "utf8" }).trim().split("\n")[0]);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasTmux())("nyz saves its session however it ends", { timeout: 120_000 }, () => {
  it("on SIGTERM (exit 143) and when its terminal closes (SIGHUP), and releases the session", async () => {
    const sessions = join(home, "data", "sessions");
    const term = await openTerminal({ rules: [{ match: { system: LEAD }, response: { text: "Noted." } }] });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("remember the first thing");
    await term.waitForText("Noted.");
    process.kill(await nyzPid(term), "SIGTERM");
    await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
    await term.typeLine("echo exit=$?");
    await term.waitForText("exit=143");
    let files = await readdir(sessions);
    expect(files.filter((file) => file.endsWith(".lock"))).toEqual([]);
    expect(files.filter((file) => file.endsWith(".json"))).toHaveLength(1);

    await term.startNyz(["-c"]);
    await term.waitForText("remember the first thing");
    await term.typeLine("and the second");
    await term.waitFor((screen) => screen.split("Noted.").length === 3);
    const pid = await nyzPid(term);
    await term.close();
    await until(() => !isRunning(pid), 20_000);
    files = await readdir(sessions);
    expect(files.filter((file) => file.endsWith(".lock"))).toEqual([]);
    const saved = files.filter((file) => file.endsWith(".json"));
    expect(saved).toHaveLength(1);
    const record = JSON.parse(await readFile(join(sessions, saved[0]!), "utf8")) as { messages: unknown[] };
    expect(JSON.stringify(record.messages)).toContain("and the second");
  });
});

describe("the app's bundle", () => {
  it("is React's production build, loaded apart from the commands' bundle", async () => {
    const dist = new URL("../../packages/cli/dist/", import.meta.url);
    const app = await readFile(new URL("app.cjs", dist), "utf8");
    expect(app).toContain("react-reconciler.production");
    expect(app).not.toContain("react-reconciler.development");
    // The commands (`--version`, `exec`, `run` …) never parse React or ink.
    const commands = await readFile(new URL("nyz-main.cjs", dist), "utf8");
    expect(commands).not.toContain("react-reconciler");
  });
});

describe("nyz without a terminal", () => {
  it("prints a one-line hint and exits 2 instead of opening the app", async () => {
    const result = await runNyz([], { cwd: workspace, env: { NYZHI_HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      'nyz: the interactive app needs a terminal; use `nyz exec "…"` for scripts (nyz --help for all commands)\n',
    );
    const prompt = await runNyz(["fix the bug"], { cwd: workspace, env: { NYZHI_HOME: home } });
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain("needs a terminal");
  });
});
