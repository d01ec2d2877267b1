import { execFileSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * The app at 40 columns and across resizes (issue 19: "readable down to 40 columns; resizing
 * reflows without garbage"), in a real terminal through the built `nyz`.
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";
const ANSWER = [
  "## Findings",
  "",
  "The configuration loader reads three files in order and merges them, the later ones winning.",
  "",
  "- global settings come first",
  "- then the project's own file",
  "",
  "```ts",
  "const merged = mergeConfigLayers([globalLayer, projectLayer, localLayer]);",
  "```",
].join("\n");

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

/** The screen with wrapped rows joined back (`capture-pane -J`): a row too wide shows as one long line. */
async function joinedScreen(term: TmuxTerminal): Promise<string[]> {
  const text = await term.tmux("capture-pane", "-p", "-J", "-t", term.target);
  return text.replace(/\n+$/, "").split("\n");
}

/** The app's live region: from the input box's top border to the end of the screen. */
function liveRegion(lines: readonly string[]): string[] {
  const top = lines.findLastIndex((line) => line.startsWith("╭"));
  return top < 0 ? [] : lines.slice(top);
}

/** Cells of a line of this test's text (ASCII, box drawing, `›…●`: one cell each). */
const cells = (line: string) => [...line].length;

describe.skipIf(!hasTmux())("the app's layout in a terminal", { timeout: 120_000 }, () => {
  it("fits 40 columns, and redraws without leftovers when the window narrows and widens", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: { toolCalls: [{ name: "read", arguments: { file_path: "README.md" } }] },
        },
        { match: { system: LEAD }, response: { text: ANSWER } },
      ],
    });
    const workspace = await mkdtemp(join(tmpdir(), "nyzhi-e2e-layout-"));
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    execFileSync("sh", ["-c", "printf 'a readme with a rather long first line of text\\n' > README.md"], {
      cwd: workspace,
    });
    const term = await TmuxTerminal.start({
      cwd: workspace,
      columns: 40,
      rows: 30,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: workspace,
        NYZHI_LOG: "silent",
        ...anthropicEnv(mock, await tempHome()),
      },
    });
    terminal = term;
    await term.startNyz(["--trust", "full"]);
    await term.waitForText(READY);
    await term.typeLine("what does the loader do?");
    await term.waitForText("mergeConfigLayers");
    await term.waitFor((screen) =>
      liveRegion(screen.split("\n")).some((line) => line.includes("enter send")),
    );

    const narrow = await joinedScreen(term);
    // Every row nyz drew fits (the shell's own command line above it may not, and how many rows it
    // wraps to depends on where the checkout lives).
    const tooWide = narrow.filter(
      (line) => !line.startsWith(SHELL_PROMPT) && !line.includes("nyz.cjs") && cells(line.trimEnd()) > 40,
    );
    expect(tooWide, narrow.join("\n")).toEqual([]);
    expect(narrow.join("\n")).toContain("read README.md");

    // Wider, then narrower than the text was drawn at: one input box, every live row fits.
    for (const columns of [70, 32, 40]) {
      await term.tmux("resize-window", "-t", term.target, "-x", String(columns), "-y", "30");
      await new Promise((resolve) => setTimeout(resolve, 600));
      const lines = await joinedScreen(term);
      const boxes = lines.filter((line) => line.startsWith("╭")).length;
      const live = liveRegion(lines);
      expect(boxes, `${columns} columns:\n${lines.join("\n")}`).toBe(1);
      expect(
        live.filter((line) => cells(line.trimEnd()) > columns),
        `${columns} columns:\n${lines.join("\n")}`,
      ).toEqual([]);
      expect(live.at(1)).toMatch(/^│ › Ask anything/);
    }

    await term.typeLine("/exit");
    await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
  });
});
