import { access, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, RecordedRequest } from "@nyzhi/mock-llm";
import { beforeEach, describe, expect, it } from "vitest";
import { closeAfterEach, freshProjectAndHome } from "./helpers/app-session.js";
import { CODE_INDEX_FIXTURE, writeFiles } from "./helpers/code-index-fixture.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * The app trusted with the keyboard and the terminal (issue 27): a dialog never takes keys typed
 * for the input, a deny reason typed fast reaches the model, and a resize keeps the scrollback.
 * Through the built `nyz` in tmux against the mock LLM.
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  ({ workspace, home } = await freshProjectAndHome("nyzhi-e2e-keys-"));
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

function leadRequests(): RecordedRequest[] {
  return (mock?.requests ?? []).filter((request) => request.system?.includes(LEAD));
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function exitApp(term: TmuxTerminal): Promise<string> {
  await term.keys("C-u");
  await term.typeLine("/exit");
  return term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
}

describe.skipIf(!hasTmux())("nyz with the keyboard and the terminal", { timeout: 180_000 }, () => {
  it("a subagent's approval that opens while a sentence is typed takes none of its keys", async () => {
    const notes = join(workspace, "notes.txt");
    const term = await openTerminal({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          times: 1,
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "write the notes" } }] },
        },
        {
          match: { system: NOT_LEAD, lastIsToolResult: false },
          // Late, so the dialog opens while the sentence is being typed.
          response: {
            delayMs: 1500,
            toolCalls: [{ name: "write", arguments: { file_path: "notes.txt", content: "child\n" } }],
          },
        },
        { match: { system: NOT_LEAD, lastIsToolResult: true }, response: { text: "notes written" } },
        {
          match: { system: LEAD, lastIsToolResult: true, anyMessage: "agent_nickname" },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: {} }] },
        },
        { match: { system: LEAD }, response: { text: "all done" } },
      ],
    });
    await term.startNyz(["--trust", "off"]);
    await term.waitForText(READY);
    await term.typeLine("make notes");
    // Type a sentence full of y, a, n through the moment the dialog opens, then Enter.
    const pattern = "yes any nay and ya ";
    let sentence = "";
    let afterDialog = -1;
    while (afterDialog < 12) {
      const key = pattern[sentence.length % pattern.length]!;
      await term.type(key);
      sentence += key;
      if (afterDialog >= 0) afterDialog++;
      else if ((await term.screen()).includes("wants to use write")) afterDialog = 0;
      if (sentence.length > 400) throw new Error(`no dialog opened; screen:\n${await term.screen()}`);
    }
    await term.keys("Enter");
    await term.type("yan");
    const screen = await term.waitForText("› yan");
    expect(screen).toContain("wants to use write");
    expect(screen).toContain("You were typing, so your keys stay in the input. ctrl+g: answer this request");
    // Nothing answered the dialog.
    expect(await exists(notes)).toBe(false);
    expect(screen).not.toContain("Allowed for this session");

    // The answer key gives the dialog the keyboard; then y allows.
    await term.keys("C-g");
    await term.waitForText("y allow · a always · n deny");
    await term.keys("y");
    await until(() => exists(notes));
    expect(await readFile(notes, "utf8")).toBe("child\n");
    // The whole sentence reached the lead, as typed.
    await until(() =>
      leadRequests().some((request) => JSON.stringify(request.messages).includes(sentence.trim())),
    );
    await exitApp(term);
  });

  it("a deny reason typed with its Enter in one write reaches the model", async () => {
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
        { match: { system: LEAD, lastIsToolResult: true }, response: { text: "Left as it is." } },
      ],
    });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("make it green");
    await term.waitForText("Allow once (y)");
    await term.keys("n");
    await term.waitForText("Reason for denying");
    await term.type("keep it blue\r");
    await term.waitForText("Left as it is.");
    const results = leadRequests()
      .at(-1)!
      .messages.flatMap((message) => message.toolResults ?? []);
    expect(results.at(-1)?.content).toContain("denied by the user: keep it blue");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("colour: blue\n");
    await exitApp(term);
  });

  it("a resize keeps the shell's output above and the conversation in the scrollback; the live region is drawn once", async () => {
    // Paragraphs of three sentences: finished ones go to the scrollback while the answer streams.
    const long = Array.from(
      { length: 60 },
      (_, index) => `streamed sentence number ${index} of the long answer.${index % 3 === 2 ? "\n\n" : " "}`,
    );
    const term = await openTerminal(
      {
        rules: [
          { match: { system: LEAD, lastUser: "say hello" }, response: { text: "Hello there, friend." } },
          { match: { system: LEAD }, response: { text: [...long, "THE END"], chunkDelayMs: 60 } },
        ],
      },
      { columns: 100, rows: 30 },
    );
    await term.typeLine("clear");
    await term.waitFor((screen) => screen.trim() === SHELL_PROMPT.trim(), 10_000, "screen");
    await term.tmux("clear-history", "-t", term.target);
    await term.typeLine('for i in $(seq 1 60); do echo "marked line $i"; done');
    await term.waitForText("marked line 60");
    await term.startNyz([], { keepScreen: true });
    await term.waitForText(READY);
    await term.typeLine("say hello");
    await term.waitForText("Hello there, friend.");
    await term.typeLine("tell me a long story");
    await term.waitForText("streamed sentence number 3 ");
    // During the stream: narrower, wider, narrower.
    for (const columns of [70, 120, 60]) {
      await term.resize(columns, 30);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    await term.waitForText("THE END", 60_000);
    await term.waitForText("1 step");
    // At rest.
    for (const columns of [90, 50, 100]) {
      await term.resize(columns, 30);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    // The live region is drawn once, at the new width.
    const inputTop = /^╭─+╮$/;
    const screen = await term.waitFor(
      (text) => {
        const tops = text.split("\n").filter((line) => inputTop.test(line.trimEnd()));
        return tops.length === 1 && tops[0]!.trimEnd().length === 100;
      },
      10_000,
      "screen",
    );
    expect(screen).toContain("Ask anything");
    // The shell's output above nyz is all there, once.
    const lines = (await term.history()).split("\n").map((line) => line.trimEnd());
    for (let index = 1; index <= 60; index++) {
      expect(lines.filter((line) => line === `marked line ${index}`)).toHaveLength(1);
    }
    // So is the conversation (lines the terminal re-wrapped joined again, as a copy would be).
    const joined = await term.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", term.target);
    const flat = joined.replace(/\s+/g, " ");
    expect(flat).toContain("› say hello ● Hello there, friend.");
    for (let index = 0; index < 60; index++) {
      expect(flat).toContain(`streamed sentence number ${index} of the long answer.`);
    }
    expect(flat).toContain("THE END");
    await exitApp(term);
  });

  it("a terminal made narrower and shorter during a stream keeps each line of the answer in the scrollback once, in order", async () => {
    // 300 numbered words in paragraphs of 25: at 60 columns four paragraphs and the input box are
    // taller than a 24-row screen, so the live region must not hold them (issue 27: a row was lost).
    const words = Array.from(
      { length: 300 },
      (_, index) => `word${index}${index % 25 === 24 ? ".\n\n" : " "}`,
    );
    const term = await openTerminal(
      {
        rules: [
          {
            match: { system: LEAD },
            response: {
              text: ["# Title\n\n", ...words, "| a | b |\n|---|---|\n| 1 | 2 |\n\nEND"],
              chunkDelayMs: 15,
            },
          },
        ],
      },
      { columns: 90, rows: 28 },
    );
    const raw = join(workspace, "..", `${workspace.split("/").at(-1)}-output.bin`);
    await term.startNyz();
    await term.recordOutput(raw);
    await term.waitForText(READY);
    await term.typeLine("tell me a story");
    await term.waitForText("word60 ");
    await term.resize(60, 24);
    await term.waitForText("END", 60_000);
    await term.waitForText("1 step");
    // Every word once, in order, in what the terminal keeps (scrollback and screen; rows tmux
    // re-wrapped at the new width joined again).
    const history = await term.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", term.target);
    const numbers = [...history.matchAll(/\bword(\d+)\b/g)].map((match) => Number(match[1]));
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, index) => index));
    expect(history.match(/● Title/g)).toHaveLength(1);
    expect(history.match(/› tell me a story/g)).toHaveLength(1);
    // Nothing was cleared: not the screen (which tmux and others move into the scrollback), not the scrollback.
    const written = await readFile(raw, "latin1");
    expect(written).not.toContain("\x1b[2J");
    expect(written).not.toContain("\x1b[3J");
    await exitApp(term);
  });

  it("a terminal made shorter at rest draws the input box again, and typing takes no finished row", async () => {
    // Forty paragraphs fill the screen: the live region sits at its bottom, and a shorter tmux
    // deletes the rows below the cursor (the input box), where ink draws nothing new.
    const paragraphs = Array.from({ length: 40 }, (_, index) => `paragraph ${index}.\n\n`);
    const term = await openTerminal(
      { rules: [{ match: { system: LEAD }, response: { text: [...paragraphs, "LAST LINE"] } }] },
      { columns: 100, rows: 30 },
    );
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("tell me forty things");
    await term.waitForText("1 step");
    await term.resize(100, 20);
    await term.waitForText(READY);
    await term.type("abc");
    await term.waitForText("› abc");
    const history = await term.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", term.target);
    const numbers = [...history.matchAll(/\bparagraph (\d+)\./g)].map((match) => Number(match[1]));
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, index) => index));
    expect(history.match(/LAST LINE/g)).toHaveLength(1);
    expect(history.match(/─ 1 step/g)).toHaveLength(1);
    await exitApp(term);
  });

  it("/export writes to the data dir and says where; the code index never feeds the export back", async () => {
    writeFiles(workspace, CODE_INDEX_FIXTURE);
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(
      join(home, "config", "config.toml"),
      `[index]\nembedding = "none"\nauto_context_wait_ms = 5000\n`,
    );
    const term = await openTerminal({
      rules: [
        { match: { system: LEAD, lastUser: "remember" }, response: { text: "The quokkaberry is noted." } },
        { match: { system: LEAD }, response: { text: "Nothing about that here." } },
      ],
    });
    await term.startNyz();
    await term.waitForText(READY);
    await term.typeLine("remember the quokkaberry");
    await term.waitForText("The quokkaberry is noted.");
    await term.typeLine("/export");
    await term.waitForText("Exported the session to");
    const exports = join(home, "data", "exports");
    const [file] = await readdir(exports);
    expect((await term.history()).replace(/\s+/g, "")).toContain(join(exports, file!));
    expect(await readFile(join(exports, file!), "utf8")).toContain("The quokkaberry is noted.");
    expect((await readdir(workspace)).filter((name) => name.startsWith("nyzhi-export"))).toEqual([]);
    await exitApp(term);

    // A new session in the same project asks about it: no request carries the exported text.
    const before = mock!.requests.length;
    const result = await runNyz(["exec", "what is the quokkaberry?"], {
      cwd: workspace,
      env: anthropicEnv(mock!, home),
      timeoutMs: 60_000,
    });
    expect(result.stdout).toContain("Nothing about that here.");
    const later = mock!.requests.slice(before);
    expect(later.length).toBeGreaterThan(0);
    for (const request of later) expect(JSON.stringify(request)).not.toContain("is noted");
  });
});
