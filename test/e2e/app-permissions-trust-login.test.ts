import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { describe, expect, it } from "vitest";
import {
  actAsBrowser,
  startFakeAuthorizationServer,
} from "../../packages/auth/src/oauth/__fixtures__/fake-authorization-server.js";
import {
  APP_READY,
  closeAfterEach,
  LEAD_SYSTEM,
  leadRequests,
  openApp,
  quitApp,
} from "./helpers/app-session.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasTmux, TmuxTerminal } from "./helpers/tmux-terminal.js";

/**
 * Issue 29, items 10 and 11, through the built `nyz` in tmux against the mock: `/permissions` lists
 * the rules in force and removes an "allow always" answer.
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

/** A write of `notes.txt` for each prompt, then "Wrote <n>." once its result is back. */
const writeRules = (prompts: readonly string[]) =>
  prompts.flatMap((prompt, index) => [
    {
      match: { system: LEAD_SYSTEM, lastUser: prompt, lastIsToolResult: false },
      response: {
        toolCalls: [{ name: "write", arguments: { file_path: "notes.txt", content: `${prompt}\n` } }],
      },
    },
    {
      match: { system: LEAD_SYSTEM, lastUser: prompt, lastIsToolResult: true },
      response: { text: `Wrote ${index + 1}.` },
    },
  ]);

describe.skipIf(!hasTmux())("permissions, trust and login in the app", { timeout: 180_000 }, () => {
  it('/permissions lists the rules in force; removing an "allow always" answer makes its call ask again', async () => {
    mock = await startScenario({ rules: writeRules(["first note", "second note", "third note"]) });
    const workspace = await tempProject("nyzhi-e2e-permissions-");
    const home = await tempHome();
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(join(home, "config", "config.toml"), '[agent.trust]\ndeny_paths = ["secrets/**"]\n');
    const env = anthropicEnv(mock, home);
    const term = await open(env, workspace, ["--trust", "off"]);

    await term.typeLine("first note");
    await term.waitForText("y allow · a always · n deny");
    await term.keys("a");
    await term.waitForText("Wrote 1.");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("first note\n");

    // Allowed always: the same call runs without asking.
    await term.typeLine("second note");
    await term.waitForText("Wrote 2.");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("second note\n");

    await term.typeLine("/permissions");
    const listed = await term.waitForText('"Allow always" answers of this session:');
    expect(listed).toContain("trust mode: off");
    expect(listed).toMatch(/sandbox: [\w-]+/);
    expect(listed).toMatch(/deny\s+secrets\/\*\*: no tool reads or writes it \(agent\.trust\.deny_paths\)/);
    expect(listed).toMatch(/1\. .*write.*: allowed for this session/);

    await term.typeLine("/permissions remove 1");
    await term.waitForText("those calls ask again");
    await term.typeLine("/permissions");
    await term.waitFor((screen) =>
      /answers of this session:\n\s+none/.test(screen.split("/permissions remove 1").at(-1) ?? ""),
    );

    // Forgotten: the next matching call asks again.
    await term.typeLine("third note");
    await term.waitForText("y allow · a always · n deny");
    await term.keys("y");
    await term.waitForText("Wrote 3.");
    expect(leadRequests(mock).length).toBe(6);
    await term.typeLine("/help");
    await term.waitForText("/permissions [remove N|all] — Rules in force");
    await quitApp(term);
  });
  it("/trust on applies the project's settings at once: the next turn runs by its trust mode, the footer shows it", async () => {
    mock = await startScenario({ rules: writeRules(["first note", "second note"]) });
    const workspace = await tempProject("nyzhi-e2e-trust-now-");
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    await writeFile(join(workspace, ".nyzhi", "config.toml"), '[agent.trust]\nmode = "full"\n');
    const term = await open(anthropicEnv(mock, await tempHome()), workspace);
    await term.waitForText("/trust on to trust this folder");
    expect(await term.screen()).toMatch(/[\w.-]+ · trust off/);

    // Untrusted: the project's trust mode is ignored, so the write asks.
    await term.typeLine("first note");
    await term.waitForText("y allow · a always · n deny");
    await term.keys("y");
    await term.waitForText("Wrote 1.");

    // Typed as the turn ends: the reopen waits for it.
    await term.typeLine("/trust on");
    const applied = await term.waitForText("Applied now, on the same conversation");
    expect(applied).toContain("is now trusted");
    expect(applied).toContain("trust mode full");
    await term.waitFor((screen) => /[\w.-]+ · trust full/.test(screen));

    // The next turn runs in full trust (no approval) and continues the conversation.
    await term.typeLine("second note");
    await term.waitForText("Wrote 2.");
    expect(await term.screen()).not.toContain("y allow · a always · n deny");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("second note\n");
    const last = leadRequests(mock).at(-1);
    expect(
      last?.messages.some((message) => message.role === "user" && message.text.includes("first note")),
    ).toBe(true);
    await quitApp(term);
  });
  it("/login <provider> oauth shows the URL, waits for the callback, saves the token; the session opens and uses it", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD_SYSTEM }, response: { text: "Signed in fine." } }],
    });
    const authServer = await startFakeAuthorizationServer();
    try {
      const workspace = await tempProject("nyzhi-e2e-oauth-");
      const home = await tempHome();
      // The "browser": xdg-open records the URL it was asked to open; the test then plays it.
      const bin = join(home, "bin");
      const opened = join(home, "opened-url");
      await mkdir(bin, { recursive: true });
      await writeFile(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
      const { ANTHROPIC_API_KEY: _none, ...noKey } = anthropicEnv(mock, home);
      const term = await TmuxTerminal.start({
        cwd: workspace,
        env: {
          ...noKey,
          PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
          HOME: workspace,
          NYZHI_LOG: "silent",
          NYZHI_ANTHROPIC_OAUTH_URL: authServer.base,
        },
      });
      terminal = term;
      await term.startNyz();
      await term.waitForText("Type /login to log in to anthropic here");

      // A browser login that waits can be cancelled.
      await term.typeLine("/login anthropic oauth");
      await term.waitForText("/login cancel stops it");
      await term.waitFor(() => existsSync(opened));
      await term.typeLine("/login cancel");
      await term.waitForText("Login to anthropic cancelled.");
      await rm(opened);

      await term.typeLine("/login anthropic oauth");
      await term.waitForText("Open this URL in your browser to log in to anthropic");
      await term.waitFor(() => existsSync(opened));
      const url = await readFile(opened, "utf8");
      expect(url.startsWith(`${authServer.base}/authorize?`)).toBe(true);
      expect(await term.screen()).toContain(authServer.base);
      await actAsBrowser(url);

      // Saved, and the session opens without a restart.
      await term.waitForText("Logged in to anthropic");
      await term.waitFor((screen) => /[\w.-]+ · trust \w+/.test(screen) && screen.includes(APP_READY));
      await term.typeLine("hello");
      await term.waitForText("Signed in fine.");
      expect(leadRequests(mock).at(-1)?.headers.authorization).toBe("Bearer access-1");
      // The cancelled attempt never reached the server; the second did, once.
      expect(authServer.requests.map((request) => request.path)).toEqual(["/authorize", "/token"]);
      await quitApp(term);
    } finally {
      await authServer.close();
    }
  });
  it("/login <provider> key takes a masked key; a session that opened without credentials then works, unrestarted", async () => {
    mock = await startScenario({
      rules: [{ match: { system: LEAD_SYSTEM }, response: { text: "Keyed in fine." } }],
    });
    const workspace = await tempProject("nyzhi-e2e-login-key-");
    const home = await tempHome();
    const { ANTHROPIC_API_KEY: _none, ...noKey } = anthropicEnv(mock, home);
    const term = await TmuxTerminal.start({
      cwd: workspace,
      env: { ...noKey, PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace, NYZHI_LOG: "silent" },
    });
    terminal = term;
    await term.startNyz();
    await term.waitForText("Type /login to log in to anthropic here");

    await term.typeLine("/login anthropic key");
    await term.waitForText("Paste the API key for anthropic");
    await term.type("sk-ant-pasted-0123456789");
    expect(await term.screen()).not.toContain("sk-ant-pasted");
    await term.keys("Enter");
    await term.waitForText("Saved the API key for anthropic");
    await term.waitFor((screen) => /[\w.-]+ · trust \w+/.test(screen) && screen.includes(APP_READY));
    await term.typeLine("hello");
    await term.waitForText("Keyed in fine.");
    expect(leadRequests(mock).at(-1)?.headers["x-api-key"]).toBe("sk-ant-pasted-0123456789");
    await quitApp(term);
  });
});
