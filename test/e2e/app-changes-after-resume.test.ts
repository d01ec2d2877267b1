import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Issue 27: a session's file changes outlive the process. Three `nyz exec -c` turns edit a file;
 * then `nyz -c` in the app lists them (/changes), shows them (/diff) and undoes the last (/undo),
 * and a later `nyz -c` undoes the one before.
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";
/** The footer names the model once the session is open (commands need it). */
const OPEN = /claude-[\w.-]+ · trust/;

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
let project: string;
let home: string;

beforeEach(async () => {
  project = await tempProject("nyzhi-e2e-changes-");
  home = await tempHome();
  await writeFile(join(project, "notes.txt"), "colour: blue\n");
  const edit = (from: string, to: string) => ({
    match: { system: LEAD, lastIsToolResult: false, lastUser: `make it ${to}` },
    response: {
      toolCalls: [{ name: "edit", arguments: { file_path: "notes.txt", old_string: from, new_string: to } }],
    },
  });
  mock = await startScenario({
    rules: [
      edit("blue", "green"),
      edit("green", "red"),
      edit("red", "black"),
      { match: { system: LEAD, lastIsToolResult: true }, response: { text: "Edited." } },
      { response: { text: "ok" } },
    ],
  });
});
closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

const env = () => ({ HOME: project, NYZHI_LOG: "silent", ...anthropicEnv(mock!, home) });
const notes = () => readFile(join(project, "notes.txt"), "utf8");

async function exec(prompt: string, resume: boolean): Promise<void> {
  const args = ["exec", "--full-auto", ...(resume ? ["-c"] : []), prompt];
  const result = await runNyz(args, { cwd: project, env: env() });
  expect(result.code, result.stderr).toBe(0);
}

/** Waits until notes.txt holds `content`; fails with the file and the screen. */
async function notesBecome(content: string, term: TmuxTerminal): Promise<void> {
  const started = Date.now();
  while ((await notes()) !== content) {
    if (Date.now() - started > 20_000)
      throw new Error(`notes.txt is ${JSON.stringify(await notes())}; screen:\n${await term.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function exitApp(term: TmuxTerminal): Promise<void> {
  await term.typeLine("/exit");
  await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

describe.skipIf(!hasTmux())("a session's changes after nyz -c", { timeout: 120_000 }, () => {
  it("/changes, /diff and /undo know the edits of the session's earlier runs", async () => {
    await exec("make it green", false);
    await exec("make it red", true);
    await exec("make it black", true);
    expect(await notes()).toBe("colour: black\n");

    terminal = await TmuxTerminal.start({
      cwd: project,
      columns: 100,
      rows: 40,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env() },
    });
    const term = terminal;
    await term.startNyz(["-c"]);
    await term.waitForText(READY);
    await term.waitFor((screen) => OPEN.test(screen), 20_000, "screen");
    await term.typeLine("/changes");
    await term.waitForText("notes.txt +1 -1");
    await term.typeLine("/diff");
    // The session's whole change, first content to last (no turn's own diff shows blue → black).
    await term.waitFor((screen) => /- colour: blue\n\s*1 \+ colour: black/.test(screen), 20_000);
    await term.typeLine("/undo");
    await term.waitForText("restored notes.txt");
    await notesBecome("colour: red\n", term);
    await exitApp(term);

    // The undo is remembered too: the next run undoes the turn before.
    await term.startNyz(["-c"]);
    await term.waitForText(READY);
    await term.waitFor((screen) => OPEN.test(screen), 20_000, "screen");
    await term.typeLine("/undo");
    await notesBecome("colour: green\n", term);
    await exitApp(term);
  });
});
