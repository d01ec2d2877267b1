import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globalConfigPath } from "@nyzhi/config";
import type { MockLlm } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome } from "./helpers/run-nyz.js";
import { hasTmux, SHELL_PROMPT, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * The app's setup commands in a real terminal through the built `nyz`: the first-run notice of an
 * untrusted folder, `/trust on`, `/init`, `/doctor`, and a skill run as a slash command.
 */
const READY = "Ask anything";
const LEAD = "You are Nizzy";

let mock: MockLlm | undefined;
let terminal: TmuxTerminal | undefined;

closeAfterEach(
  () => [terminal, mock],
  () => {
    terminal = undefined;
    mock = undefined;
  },
);

describe.skipIf(!hasTmux())("the app's setup commands in a terminal", { timeout: 120_000 }, () => {
  it("says an untrusted folder's power keys were ignored; /trust on records it; /init, /doctor and a skill work", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD }, response: { text: "Reviewed." } }],
    });
    const workspace = await mkdtemp(join(tmpdir(), "nyzhi-e2e-setup-"));
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    await mkdir(join(workspace, ".nyzhi", "skills"), { recursive: true });
    await writeFile(join(workspace, ".nyzhi", "config.toml"), '[agent.trust]\nmode = "full"\n');
    await writeFile(
      join(workspace, ".nyzhi", "skills", "audit.md"),
      "---\ndescription: Audit a file closely\n---\nRead the file and list its problems.\n",
    );
    const home = await tempHome();
    const env = anthropicEnv(mock, home);
    const term = await TmuxTerminal.start({
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace, NYZHI_LOG: "silent", ...env },
    });
    terminal = term;
    await term.startNyz();
    await term.waitForText(READY);
    // Commands run once the session is open (the footer names the model instead of "…").
    const first = await term.waitFor(
      (screen) => screen.includes("/trust on to trust this folder") && /[\w.-]+ · trust off/.test(screen),
    );
    expect(first).toContain("agent.trust.mode");
    expect(first).toContain("trust off");
    // Said once, by the app: the host does not print its own warning above it.
    expect(first).not.toContain("is not a trusted project");

    await term.typeLine("/trust on");
    await term.waitForText("is now trusted");
    expect(await readFile(globalConfigPath(env), "utf8")).toContain("trusted = true");

    await term.typeLine("/init");
    await term.waitForText("created");
    expect(existsSync(join(workspace, ".nyzhi", "rules"))).toBe(true);

    await term.typeLine("/doctor");
    await term.waitFor((screen) => /[✓✗!] sandbox: /.test(screen) && /[✓✗!] ripgrep/.test(screen));

    await term.typeLine("/audit notes.txt");
    await term.waitForText("Reviewed.");
    const lead = mock.requests.filter((request) => request.system?.includes(LEAD)).at(-1);
    const lastUser = lead?.messages.filter((message) => message.role === "user").at(-1)?.text;
    expect(lastUser).toContain('Use the skill "audit"');
    expect(lastUser).toContain("notes.txt");

    await term.typeLine("/exit");
    await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
    // Reopened, the project is trusted: its own trust mode applies and the notice is gone.
    await term.startNyz();
    const reopened = await term.waitForText("trust full");
    expect(reopened).not.toContain("/trust on to trust this folder");
    await term.typeLine("/exit");
    await term.waitFor((screen) => screen.trimEnd().endsWith(SHELL_PROMPT.trim()), 20_000, "screen");
  });
});
