import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globalConfigPath, loadConfig } from "@nyzhi/config";
import { expandSlashCommand, loadCommandCatalogue, type OpenedSession, skillPrompt } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import { loadExtraCommands } from "./app-commands.js";
import type { CommandContext } from "./command-types.js";
import {
  doctorCommand,
  initCommand,
  loginCommand,
  sandboxCommand,
  settingsCommand,
  startupNotice,
  themeCommand,
  trustCommand,
} from "./setup-commands.js";

/** A project with an untrusted config that sets a power key, a home, and a command context on them. */
async function setUp(projectConfig = '[agent.trust]\nmode = "full"\n') {
  const root = await mkdtemp(join(tmpdir(), "nyzhi-setup-commands-"));
  const home = await mkdtemp(join(tmpdir(), "nyzhi-setup-home-"));
  await mkdir(join(root, ".nyzhi"), { recursive: true });
  await writeFile(join(root, ".nyzhi", "config.toml"), projectConfig);
  const env = { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file", ANTHROPIC_API_KEY: "sk-ant-test-123456" };
  const loaded = await loadConfig({ cwd: root, env });
  const said: string[] = [];
  const sent: { text: string; display?: string | undefined }[] = [];
  const catalogue = { root: loaded.projectRoot, config: loaded.config, env, mcp: undefined, warn: () => {} };
  const session = {
    commands: () => loadCommandCatalogue(catalogue),
    expandCommand: (prompt: string) => expandSlashCommand(prompt, catalogue),
    projectRoot: loaded.projectRoot,
    config: loaded.config,
    loaded,
    model: { providerId: "anthropic", modelId: "test-model" },
    mcp: { manager: { statuses: () => [] } },
  } as unknown as OpenedSession;
  const reopened: OpenedSession[] = [];
  const context = {
    session,
    env,
    // As core's `session.reopen()`: the config loaded again, its trust mode in force.
    reopenSession: async () => {
      const again = await loadConfig({ cwd: root, env });
      const next = {
        ...session,
        config: again.config,
        loaded: again,
        modes: { trustMode: () => again.config.agent.trust.mode },
      } as unknown as OpenedSession;
      reopened.push(next);
      return next;
    },
    say: (message: string) => said.push(message),
    send: (text: string, options?: { display?: string }) => sent.push({ text, display: options?.display }),
  } as unknown as CommandContext;
  return { root: loaded.projectRoot, env, loaded, context, said, sent, reopened };
}

describe("setup commands", () => {
  it("/trust says the folder is untrusted and what was ignored; /trust on records it in the global config", async () => {
    const { root, env, context, said, reopened } = await setUp();
    await trustCommand.run("", context);
    expect(said[0]).toContain(`This folder (${root}) is not trusted`);
    expect(said[0]).toContain("agent.trust.mode");
    await trustCommand.run("on", context);
    expect(said[1]).toContain("is now trusted");
    // Applied at once: the session reopened with the project's trust mode.
    expect(reopened).toHaveLength(1);
    expect(said[2]).toContain("Applied now, on the same conversation");
    expect(said[2]).toContain("trust mode full");
    expect(await readFile(globalConfigPath(env), "utf8")).toContain("trusted = true");
    expect((await loadConfig({ cwd: root, env })).projectTrusted).toBe(true);
  });

  it("the first-run notice names the ignored keys and /trust", async () => {
    const { loaded } = await setUp();
    const warning = loaded.warnings.find((entry) => entry.kind === "untrusted-project");
    expect(warning).toBeDefined();
    const notice = startupNotice(warning!);
    expect(notice).toContain("agent.trust.mode");
    expect(notice).toContain("/trust on to trust this folder");
  });

  it("/init scaffolds .nyzhi/", async () => {
    const { root, context, said } = await setUp();
    await initCommand.run("", context);
    expect(said[0]).toMatch(/created .*\.nyzhi/);
    expect(existsSync(join(root, ".nyzhi"))).toBe(true);
    expect(said[0]).toContain("kept");
  });

  it("/theme light saves tui.theme; an unknown word writes nothing", async () => {
    const { env, context, said } = await setUp();
    await themeCommand.run("neon", context);
    expect(said[0]).toContain('Unknown theme or accent "neon"');
    expect(existsSync(globalConfigPath(env))).toBe(false);
    await themeCommand.run("light", context);
    expect(await readFile(globalConfigPath(env), "utf8")).toMatch(/theme = "light"/);
    expect(said[1]).toContain("applies when nyz next starts");
  });

  it("/login shows where each provider's credential comes from, masked, and how to log in", async () => {
    const { context, said } = await setUp();
    await loginCommand.run("", context);
    expect(said[0]).toMatch(/anthropic/i);
    expect(said[0]).toContain("ANTHROPIC_API_KEY");
    expect(said[0]).not.toContain("sk-ant-test-123456");
    expect(said[0]).toContain("/login <provider>");
  });

  it("/sandbox <level> never seems to change the level: it says it stays, and how to get the other", async () => {
    const { context, said } = await setUp();
    await sandboxCommand.run("read-only", context);
    expect(said[0]).toContain("The sandbox stays workspace-write");
    expect(said[0]).toContain("nyz --sandbox read-only");
    expect(said[0]).not.toContain("Sandbox: read-only");
    await sandboxCommand.run("everything", context);
    expect(said[1]).toContain('Unknown sandbox level "everything"');
  });

  it("/doctor lists each check with a fix; /sandbox and /settings describe the session", async () => {
    const { context, said } = await setUp();
    await doctorCommand.run("", context);
    expect(said[0]).toContain("credentials: anthropic");
    // The checks of `nyz doctor` (core's runDoctor): tmux is asked with -V, not --version.
    expect(said[0]).toMatch(/^[✓!] sandbox: /m);
    expect(said[0]).toMatch(/^[✓!] (ripgrep|rg )/m);
    expect(said[0]).toMatch(/^[✓!] (tmux|tmux \S+)/m);
    expect(said[0]).toMatch(/^[✓!✗] config: /m);
    await sandboxCommand.run("", context);
    expect(said[1]).toContain("Sandbox: workspace-write");
    await settingsCommand.run("", context);
    expect(said[2]).toContain("Model now: anthropic/test-model");
    expect(said[2]).toMatch(/tui\.theme = "dark"/);
  });

  it("a skill is a slash command that asks the model to load and follow it", async () => {
    const { root, context, sent } = await setUp("");
    await mkdir(join(root, ".nyzhi", "skills"), { recursive: true });
    await writeFile(
      join(root, ".nyzhi", "skills", "review.md"),
      "---\ndescription: Review a file\n---\nRead it closely.\n",
    );
    const commands = await loadExtraCommands(context.session);
    const review = commands.find((command) => command.name === "review");
    expect(review).toMatchObject({
      source: "skill",
      description: "Review a file",
      group: "Skills",
      kind: "prompt",
    });
    // Run like a custom command: the session (core's catalogue) expands it, as `nyz exec` does.
    const expanded = await context.session.expandCommand("/review src/a.ts");
    await review!.run("src/a.ts", context);
    expect(sent).toEqual([{ text: expanded, display: "/review src/a.ts" }]);
    expect(expanded).toBe(skillPrompt("review", "src/a.ts"));
    expect(expanded).toContain('Use the skill "review"');
    expect(expanded).toContain("src/a.ts");
  });
});
