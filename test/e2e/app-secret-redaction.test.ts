import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome } from "./helpers/run-nyz.js";
import { hasTmux, TmuxTerminal } from "./helpers/tmux-terminal.js";

/** A distinctive key, planted as ANTHROPIC_API_KEY: the app must never draw it. */
const KEY = "sk-ant-PLANTED-app-4c1e9b7d3f";

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

describe.skipIf(!hasTmux())("the app and a known credential", { timeout: 60_000 }, () => {
  it("draws [redacted] where the model repeats the key, streamed in pieces and in a tool's output", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "nyzhi-e2e-app-secret-"));
    await writeFile(join(workspace, "notes.txt"), `deploy key: ${KEY}\n`);
    mock = await startScenario({
      rules: [
        {
          match: { lastIsToolResult: true },
          response: { text: ["The key is sk-ant-PLANTED-a", "pp-4c1e9b7d3f. Done."] },
        },
        { match: {}, response: { toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }] } },
      ],
    });
    const home = await tempHome();
    const term = await TmuxTerminal.start({
      cwd: workspace,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: workspace,
        NYZHI_LOG: "silent",
        ...anthropicEnv(mock, home),
        ANTHROPIC_API_KEY: KEY,
      },
    });
    terminal = term;
    await term.startNyz();
    await term.waitForText("Ask anything");
    await term.typeLine("what is in notes.txt?");
    const screen = await term.waitForText("Done.");
    expect(screen).toContain("The key is [redacted]");
    const everything = `${screen}\n${await term.history()}`;
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain("4c1e9b7d3f");
  });
});
