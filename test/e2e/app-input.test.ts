import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { leadRequests, openApp, quitApp, waitForLeadRequests } from "./helpers/app-terminal.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, type TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * What a person types besides prompts, through the built app against the mock (issue 29, items
 * 1–5): `@path` attaches files and folders (chips on screen, a `<context>` block for the model,
 * deny rules refuse), `!command` runs under the bash tool's rules, `&prompt` runs in the
 * background, images attach from the clipboard or a dropped path, and Esc Esc rewinds.
 * Set NYZHI_WRITE_REWIND_CAPTURE=<file> to save the app from its header to the rewind list
 * (docs/app-rewind-capture.txt, shown in the README).
 */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;
closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

const ANSWER: Scenario["rules"][number] = { response: { text: "Answered." } };

/** A project and a home whose config denies `.env`; `env` points at the mock. */
async function setup(scenario: Scenario) {
  mock = await startScenario(scenario);
  const workspace = await tempProject("nyzhi-e2e-input-");
  const home = await tempHome();
  await mkdir(join(home, "config"), { recursive: true });
  await writeFile(join(home, "config", "config.toml"), '[agent.trust]\ndeny_paths = [".env"]\n');
  return { workspace, home, env: anthropicEnv(mock, home) };
}

const lastUserText = (server: MockLlm) =>
  leadRequests(server)
    .at(-1)!
    .messages.filter((message) => message.role === "user")
    .at(-1)!.text;

describe.skipIf(!hasTmux())(
  "typing in the app: @path, !command, &prompt, images, rewind",
  { timeout: 180_000 },
  () => {
    it("@path sends a file's content and a folder's listing in a <context> block, shows chips, and refuses a denied .env", async () => {
      const { workspace, env } = await setup({ rules: [ANSWER] });
      await writeFile(join(workspace, "notes.txt"), "alpha-line\nbeta-line\ngamma-line\n");
      await mkdir(join(workspace, "src", "node_modules"), { recursive: true });
      await writeFile(join(workspace, "src", "main.ts"), "export {};\n");
      await writeFile(join(workspace, "src", "util.ts"), "export {};\n");
      await writeFile(join(workspace, ".env"), "TOKEN=hunter2\n");
      terminal = await openApp(env, workspace);

      await terminal.typeLine("summarise @notes.txt with @src and @.env please");
      const screen = await terminal.waitForText("Answered.");
      expect(screen).toContain("[file notes.txt · 3 lines]");
      expect(screen).toContain("[folder src · 2 entries]");
      expect(screen).toMatch(/Not attached: \.env: [\s\S]*deny_paths rule "\.env"/);
      // The transcript shows the chips, not the content.
      expect(screen).not.toContain("gamma-line");

      const sent = leadRequests(mock!).at(-1)!;
      const user = sent.messages.filter((message) => message.role === "user").at(-1)!.text;
      expect(user).toContain(
        '<context>\n<file path="notes.txt" lines="3">\nalpha-line\nbeta-line\ngamma-line\n</file>',
      );
      expect(user).toContain('<directory path="src">\nmain.ts\nutil.ts\n</directory>\n</context>');
      expect(user).toContain("summarise @notes.txt with @src and @.env please");
      expect(JSON.stringify(sent.body)).not.toContain("hunter2");
      await quitApp(terminal);
    });

    it("!command asks as the bash tool does, shows the output, and the next request holds command and output", async () => {
      const { workspace, env } = await setup({ rules: [ANSWER] });
      terminal = await openApp(env, workspace);

      await terminal.typeLine("!echo shell-said-$((6*7))");
      await terminal.waitForText("Allow once (y)");
      await terminal.type("y");
      await terminal.waitForText("shell-said-42");
      expect(leadRequests(mock!)).toHaveLength(0);

      await terminal.typeLine("what did it print?");
      await terminal.waitForText("Answered.");
      const users = leadRequests(mock!)
        .at(-1)!
        .messages.filter((message) => message.role === "user")
        .map((message) => message.text)
        .join("\n");
      expect(users).toContain("echo shell-said-$((6*7))");
      expect(users.indexOf("shell-said-42")).toBeLessThan(users.indexOf("what did it print?"));
      await quitApp(terminal);
    });

    it("&prompt runs the prompt in the background and frees the input", async () => {
      const { workspace, env } = await setup({
        rules: [
          { match: { lastUser: "slow background job" }, response: { text: "BG-DONE", delayMs: 4000 } },
          ANSWER,
        ],
      });
      terminal = await openApp(env, workspace);

      await terminal.typeLine("&slow background job");
      const screen = await terminal.waitFor(
        (text) =>
          text.includes("1 in background (/bg)") && text.includes("The prompt runs in the background"),
      );
      // The footer shows the idle keys: nothing runs in the foreground.
      expect(screen).not.toContain("esc interrupt · enter queue");
      await terminal.waitForText("Background turn #1 ended (completed): slow background job");
      await terminal.waitForText("BG-DONE");
      expect(lastUserText(mock!)).toBe("slow background job");
      await quitApp(terminal);
    });

    it("an image from the clipboard (Ctrl+V) or a dropped path attaches as a chip and reaches the model", async () => {
      const { workspace, env } = await setup({ rules: [ANSWER] });
      const bin = join(workspace, "fake-bin");
      await mkdir(bin);
      await writeFile(join(workspace, "pixel.png"), PIXEL);
      // The clipboard as xclip hands it over.
      await writeFile(join(bin, "xclip"), `#!/bin/sh\nexec cat '${join(workspace, "pixel.png")}'\n`);
      await chmod(join(bin, "xclip"), 0o755);
      terminal = await openApp({ ...env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` }, workspace);

      await terminal.keys("C-v");
      await terminal.waitFor((screen) => /\[image nyzhi-clipboard-\d+-1\.png\]/.test(screen));
      await terminal.typeLine("what is in the picture?");
      await terminal.waitForText("Answered.");
      const first = JSON.stringify(leadRequests(mock!).at(-1)!.body);
      expect(first).toContain(PIXEL.toString("base64"));
      expect(first).toContain("what is in the picture?");

      // A file dropped on the terminal pastes its path (bracketed).
      await terminal.tmux("set-buffer", "-b", "drop", join(workspace, "pixel.png"));
      await terminal.tmux("paste-buffer", "-p", "-b", "drop", "-t", terminal.target);
      await terminal.waitForText("[image pixel.png]");
      await terminal.typeLine("and this one?");
      await waitForLeadRequests(mock!, 2);
      const second = leadRequests(mock!)[1]!;
      expect(JSON.stringify(second.body).split(PIXEL.toString("base64")).length - 1).toBe(2);
      expect(lastUserText(mock!)).toContain("and this one?");
      await quitApp(terminal);
    });

    it("a model without image input says so before anything is sent", async () => {
      const { workspace, env } = await setup({ rules: [ANSWER] });
      await writeFile(join(workspace, "pixel.png"), PIXEL);
      terminal = await openApp(env, workspace, ["--model", "anthropic/deepseek-chat"]);

      await terminal.typeLine("what is @pixel.png showing?");
      await terminal.waitForText("does not take image input");
      await terminal.waitForText("Nothing was sent: the prompt is back in the input.");
      await terminal.tmux("set-buffer", "-b", "drop", join(workspace, "pixel.png"));
      await terminal.tmux("paste-buffer", "-p", "-b", "drop", "-t", terminal.target);
      await terminal.waitForText("the path was pasted as text");
      expect(leadRequests(mock!)).toHaveLength(0);
      // The prompt came back to the input, the pasted path after it as text; Esc clears it.
      await terminal.waitForText(`› what is @pixel.png showing?${join(workspace, "pixel.png")}`);
      await terminal.keys("Escape");
      await terminal.waitFor((screen) => screen.includes("› Ask anything"), 20_000, "screen");
      await quitApp(terminal);
    });

    it("Esc twice lists earlier prompts; picking one and confirming drops the later turns and undoes their file changes", async () => {
      const { workspace, env } = await setup({
        rules: [
          {
            match: { lastUser: "write it", lastIsToolResult: false },
            response: {
              toolCalls: [{ name: "write", arguments: { file_path: "a.txt", content: "changed\n" } }],
            },
          },
          ANSWER,
        ],
      });
      await writeFile(join(workspace, "a.txt"), "original\n");
      terminal = await openApp(env, workspace, ["--trust", "full"]);

      await terminal.typeLine("first question");
      await waitForLeadRequests(mock!, 1);
      await terminal.typeLine("write it");
      await waitForLeadRequests(mock!, 3);
      expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("changed\n");
      await terminal.waitFor((screen) => !screen.includes("esc interrupt · enter queue"), 20_000, "screen");

      await terminal.keys("Escape");
      await terminal.keys("Escape");
      await terminal.waitForText("Rewind to which prompt?");
      if (process.env.NYZHI_WRITE_REWIND_CAPTURE) {
        // The README's capture: from the command line on (the header is above the screen's first row).
        const lines = (await terminal.history()).trimEnd().split("\n");
        lines[0] = "$ nyz";
        await writeFile(process.env.NYZHI_WRITE_REWIND_CAPTURE, `${lines.join("\n")}\n`);
      }
      await terminal.keys("Enter");
      await terminal.waitForText("Undoes the file changes made since: restore a.txt.");
      await terminal.waitForText("Rewind and undo 1 file change(s)");
      await terminal.keys("Enter");
      await terminal.waitForText("Rewound. Undone: restored a.txt.");
      expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("original\n");

      // The prompt's text is back in the input, to edit and send again.
      await terminal.type(" in French");
      await terminal.keys("Enter");
      await waitForLeadRequests(mock!, 4);
      const messages = leadRequests(mock!)[3]!.messages.filter((message) => message.role !== "system");
      expect(messages.map((message) => [message.role, message.text])).toEqual([
        ["user", "first question"],
        ["assistant", "Answered."],
        ["user", "write it in French"],
      ]);

      // /rewind opens the same list (newest first); /help lists it and the typing helpers.
      await terminal.waitFor((screen) => !screen.includes("esc interrupt · enter queue"), 20_000, "screen");
      await terminal.typeLine("/rewind");
      await terminal.waitFor(
        (screen) => /Rewind to which prompt\?[\s\S]*› write it in French[\s\S]*first question/.test(screen),
        20_000,
        "screen",
      );
      await terminal.keys("Escape");
      await terminal.waitFor((screen) => !screen.includes("Rewind to which prompt?"), 20_000, "screen");
      await terminal.typeLine("/help");
      const help = await terminal.waitForText("/rewind — Go back to an earlier prompt");
      for (const line of [
        "@path attaches a file",
        "!command runs a shell line",
        "&prompt runs the prompt in the background",
        "ctrl+v attaches the clipboard's image",
        "esc esc on an empty input",
      ])
        expect(help).toContain(line);
      await quitApp(terminal);
    });
  },
);
