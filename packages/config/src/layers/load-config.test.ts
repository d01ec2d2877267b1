import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../base/config-error.js";
import { useTempDirs, writeFiles } from "../testing/temp-dirs.js";
import { loadConfig, reloadConfig } from "./load-config.js";
import { NOT_YET_READ_KEYS } from "./unused-keys.js";

const temp = useTempDirs();
afterEach(() => temp.cleanup());

/** A NYZHI_HOME and a project with a `.nyzhi/` folder, both in temp dirs. */
async function setup(files: { global?: string; project?: string; local?: string } = {}) {
  const home = await temp.make();
  const root = await temp.make();
  await writeFiles(root, { ".nyzhi/.keep": "" });
  const globalFile = join(home, "config", "config.toml");
  const projectFile = join(root, ".nyzhi", "config.toml");
  const localFile = join(root, ".nyzhi", "config.local.toml");
  if (files.global !== undefined) await writeFiles(home, { "config/config.toml": files.global });
  if (files.project !== undefined) await writeFiles(root, { ".nyzhi/config.toml": files.project });
  if (files.local !== undefined) await writeFiles(root, { ".nyzhi/config.local.toml": files.local });
  return { home, root, globalFile, projectFile, localFile, env: { NYZHI_HOME: home } };
}

async function loadError(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("loadConfig: layers and origins", () => {
  it("reads global, project and local files, then env, then flags, and records each origin", async () => {
    const { root, env, globalFile, projectFile, localFile } = await setup({
      global: '[provider]\ndefault = "anthropic"\n\n[agent.retry]\nmax_retries = 5\n',
      project: "[agent]\nmax_steps = 40\n\n[agent.retry]\nmax_retries = 3\n",
      local: '[tui]\ntheme = "light"\n',
    });
    const loaded = await loadConfig({
      cwd: join(root, ".nyzhi"),
      env: { ...env, NYZHI_TRUST: "auto-edit", NYZHI_SANDBOX: "readonly" },
      flags: { "agent.max_steps": 7, "index.enabled": false },
      flagNames: { "agent.max_steps": "--max-steps" },
    });
    expect(loaded.projectRoot).toBe(root);
    expect(loaded.files).toEqual([
      { layer: "global", path: globalFile },
      { layer: "project", path: projectFile },
      { layer: "local", path: localFile },
    ]);
    // The app reads tui.theme and sessions read index.enabled: neither warns.
    expect(loaded.warnings.map((warning) => warning.message)).toEqual([]);
    const pick = (...keys: string[]) => Object.fromEntries(keys.map((key) => [key, loaded.origins[key]]));
    expect(
      pick(
        "tui.accent",
        "provider.default",
        "agent.retry.max_retries",
        "tui.theme",
        "agent.trust.mode",
        "agent.sandbox",
        "agent.max_steps",
        "index.enabled",
      ),
    ).toEqual({
      "tui.accent": { layer: "default", source: "default", value: "copper" },
      "provider.default": { layer: "global", source: globalFile, value: "anthropic" },
      "agent.retry.max_retries": { layer: "project", source: projectFile, value: 3 },
      "tui.theme": { layer: "local", source: localFile, value: "light" },
      "agent.trust.mode": { layer: "env", source: "NYZHI_TRUST", value: "autoedit" },
      "agent.sandbox": { layer: "env", source: "NYZHI_SANDBOX", value: "read-only" },
      "agent.max_steps": { layer: "flag", source: "--max-steps", value: 7 },
      "index.enabled": { layer: "flag", source: "--index.enabled", value: false },
    });
  });

  it("uses the defaults when no file exists, without touching the real home", async () => {
    const { root, env } = await setup();
    const loaded = await loadConfig({ projectRoot: root, env });
    expect(loaded.files).toEqual([]);
    expect(loaded.config.provider.default).toBe("openai");
  });

  it("applies NYZHI_PROVIDER, NYZHI_MODEL (to the resolved default provider) and NYZHI_MAX_STEPS", async () => {
    const { root, env } = await setup({ global: '[provider]\ndefault = "groq"\n' });
    const fromFile = await loadConfig({
      projectRoot: root,
      env: { ...env, NYZHI_MODEL: "llama-3", NYZHI_MAX_STEPS: "25" },
    });
    expect(fromFile.config.provider.groq).toEqual({ model: "llama-3" });
    expect(fromFile.config.agent.max_steps).toBe(25);
    expect(fromFile.origins["provider.groq.model"]).toEqual({
      layer: "env",
      source: "NYZHI_MODEL",
      value: "llama-3",
    });

    const overridden = await loadConfig({
      projectRoot: root,
      env: { ...env, NYZHI_PROVIDER: "anthropic", NYZHI_MODEL: "claude-x" },
    });
    expect(overridden.config.provider).toEqual({ default: "anthropic", anthropic: { model: "claude-x" } });
    expect(overridden.origins["provider.default"]).toEqual({
      layer: "env",
      source: "NYZHI_PROVIDER",
      value: "anthropic",
    });
  });

  it("reads NYZHI_CONFIG__SECTION__KEY as a TOML literal when it parses, else as a string", async () => {
    const { root, env } = await setup();
    const loaded = await loadConfig({
      projectRoot: root,
      env: {
        ...env,
        NYZHI_CONFIG__AGENT__RETRY__MAX_RETRIES: "9",
        NYZHI_CONFIG__INDEX__EXCLUDE: '["dist", "build"]',
        NYZHI_CONFIG__TUI__THEME: "solarized",
        NYZHI_CONFIG__AGENT__TRUST__MODE: "full",
        NYZHI_TRUST: "limited",
      },
    });
    expect(loaded.config.agent.retry.max_retries).toBe(9);
    expect(loaded.config.index.exclude).toEqual(["build", "dist"]);
    expect(loaded.config.tui.theme).toBe("solarized");
    expect(loaded.config.agent.trust.mode).toBe("limited");
    expect(loaded.origins["agent.retry.max_retries"]).toEqual({
      layer: "env",
      source: "NYZHI_CONFIG__AGENT__RETRY__MAX_RETRIES",
      value: 9,
    });
  });

  it("keeps the case of variable and header names set through NYZHI_CONFIG__", async () => {
    const { root, env } = await setup();
    const loaded = await loadConfig({
      projectRoot: root,
      env: {
        ...env,
        NYZHI_CONFIG__SHELL__ENV__GITHUB_TOKEN: "ghp_x",
        NYZHI_CONFIG__MCP__SERVERS__GITHUB__COMMAND: "gh-mcp",
        NYZHI_CONFIG__MCP__SERVERS__GITHUB__ENV__GH_HOST: "github.example.com",
      },
    });
    expect(loaded.config.shell.env).toEqual({ GITHUB_TOKEN: "ghp_x" });
    // Server names are still lowercased, like every other key.
    expect(loaded.config.mcp.servers.github).toMatchObject({
      command: "gh-mcp",
      env: { GH_HOST: "github.example.com" },
    });
  });

  it("lets a flag override env, and the project override global with a value equal to the default", async () => {
    const { root, env } = await setup({
      global: "[agent.retry]\nmax_retries = 5\n",
      project: "[agent.retry]\nmax_retries = 3\n",
    });
    const loaded = await loadConfig({
      projectRoot: root,
      env: { ...env, NYZHI_TRUST: "limited" },
      flags: { "agent.trust.mode": "full" },
      flagNames: { "agent.trust.mode": "--trust" },
    });
    expect(loaded.config.agent.retry.max_retries).toBe(3);
    expect(loaded.origins["agent.trust.mode"]).toEqual({ layer: "flag", source: "--trust", value: "full" });
  });
});

describe("loadConfig: keys nothing reads", () => {
  const removed = {
    "agent.auto_commit": "true",
    "agent.enforce_todos": "true",
    "agent.auto_simplify": "true",
    "agent.routing.enabled": "true",
    "agent.voice.enabled": "true",
    "external_notify.webhook_url": '"https://hooks.example/x"',
    "update.enabled": "false",
    "update.release_url": '"https://mirror.example"',
  };

  it.each(Object.entries(removed))(
    "loads an old file setting %s, with a warning naming it",
    async (key, value) => {
      const section = key.split(".").slice(0, -1).join(".");
      const leaf = key.split(".").at(-1);
      const { root, env, globalFile } = await setup({ global: `# old\n[${section}]\n${leaf} = ${value}\n` });
      const loaded = await loadConfig({ projectRoot: root, env });
      expect(loaded.warnings).toEqual([
        {
          kind: "removed-key",
          source: globalFile,
          line: 3,
          keyPath: key,
          message: `warning: ${globalFile}:3: ${key} is not used by nyzhi and is ignored`,
        },
      ]);
      expect(Object.keys(loaded.origins).some((origin) => origin.startsWith(key))).toBe(false);
    },
  );

  it("names every key of a removed section in one warning, from files and the environment alike", async () => {
    const { root, env, projectFile } = await setup({
      project: "[update]\nenabled = false\ncheck_interval_hours = 8\n\n[agent]\nmax_steps = 9\n",
    });
    const loaded = await loadConfig({
      projectRoot: root,
      env: { ...env, NYZHI_CONFIG__AGENT__AUTO_COMMIT: "true" },
    });
    expect(loaded.config.agent.max_steps).toBe(9);
    expect(loaded.warnings.map((warning) => warning.message)).toEqual([
      `warning: ${projectFile}:2: update.enabled, update.check_interval_hours are not used by nyzhi and are ignored`,
      "warning: NYZHI_CONFIG__AGENT__AUTO_COMMIT: agent.auto_commit is not used by nyzhi and is ignored",
    ]);
    expect(loaded.warnings[0]?.keyPaths).toEqual(["update.enabled", "update.check_interval_hours"]);
  });

  it("keeps values nothing reads yet but warns, once per entry and file; keys the app reads do not warn", async () => {
    const { root, env, projectFile } = await setup({
      project:
        '[tui]\ntheme = "light"\nstreaming = false\n\n[tui.colors]\naccent = "#112233"\n\n[provider.openai]\ntemperature = 0.2\n',
    });
    const loaded = await loadConfig({ projectRoot: root, env });
    expect(loaded.config.tui.theme).toBe("light");
    expect(loaded.config.tui.streaming).toBe(false);
    expect(loaded.warnings.map((warning) => warning.message)).toEqual([
      `warning: ${projectFile}:3: tui.streaming is not read yet: it takes effect in a later version (the app always streams)`,
      `warning: ${projectFile}:9: provider.openai.temperature is not read yet: it takes effect in a later version`,
    ]);
  });

  it("pins which keys are still unread (test/docs/unread-config-keys.test.ts checks the list against the sources)", () => {
    expect(NOT_YET_READ_KEYS.map((entry) => entry.key)).toEqual([
      "tui.markdown",
      "tui.streaming",
      "tui.output_style",
      "tui.show_thinking",
      "tui.colors.bg_page",
      "tui.colors.bg_surface",
      "tui.colors.bg_elevated",
      "tui.colors.bg_sunken",
      "tui.colors.text_disabled",
      "tui.colors.border_strong",
      "tui.colors.accent_muted",
      "models",
      "provider.*.max_tokens",
      "provider.*.temperature",
      "agent.model_profile",
      "agent.sharing",
      "agent.trust.remember_approvals",
      "browser",
    ]);
  });
});

describe("loadConfig: errors and warnings", () => {
  it("reports a TOML syntax error as file:line:column with the offending line and a caret", async () => {
    const { root, env, projectFile } = await setup({
      project: '[agent]\n\n[agent.trust]\nmode = = "full"\n',
    });
    const error = await loadError(loadConfig({ projectRoot: root, env }));
    expect(error.message).toBe(
      `${projectFile}:4:8: invalid TOML: invalid value\n  4 | mode = = "full"\n    |        ^`,
    );
    expect({ code: error.code, file: error.file, line: error.line, column: error.column }).toEqual({
      code: "config_invalid_toml",
      file: projectFile,
      line: 4,
      column: 8,
    });
  });

  it("reports a bad enum value with file, line, key path and the allowed values", async () => {
    const { root, env, projectFile } = await setup({ project: '# trust\n\n[agent.trust]\nmode = "fulll"\n' });
    const error = await loadError(loadConfig({ projectRoot: root, env }));
    expect(error.message).toBe(
      `${projectFile}:4: agent.trust.mode: expected one of off, limited, autoedit, full; got "fulll"`,
    );
    expect({ code: error.code, file: error.file, line: error.line, keyPath: error.keyPath }).toEqual({
      code: "config_invalid_value",
      file: projectFile,
      line: 4,
      keyPath: "agent.trust.mode",
    });
  });

  it("reports a wrong type, and a value from the environment by variable name", async () => {
    const { root, env, globalFile } = await setup({ global: '[agent]\nmax_steps = "many"\n' });
    const fromFile = await loadError(loadConfig({ projectRoot: root, env }));
    expect(fromFile.message).toBe(`${globalFile}:2: agent.max_steps: expected an integer; got "many"`);

    const { root: root2, env: env2 } = await setup();
    const fromEnv = await loadError(
      loadConfig({ projectRoot: root2, env: { ...env2, NYZHI_SANDBOX: "none" } }),
    );
    expect(fromEnv.message).toBe(
      'NYZHI_SANDBOX: agent.sandbox: expected one of read-only, workspace-write, full-access; got "none"',
    );
    expect(fromEnv.file).toBe("NYZHI_SANDBOX");
  });

  it("reports an MCP server with neither command nor url at the server's key path and table line", async () => {
    const { root, env, projectFile } = await setup({
      project: '[mcp.servers.ok]\ncommand = "npx"\n\n[mcp.servers.broken]\nargs = ["x"]\n',
    });
    const error = await loadError(loadConfig({ projectRoot: root, env }));
    expect(error.message).toBe(
      `${projectFile}:4: mcp.servers.broken: expected \`command\` (a stdio server) or \`url\` (an http server); the entry has neither`,
    );
    expect(error.keyPath).toBe("mcp.servers.broken");
  });

  it("reports a bad field of an MCP server variant, and a missing hook event, by key path", async () => {
    const { root, env, projectFile } = await setup({
      project: '[mcp.servers.exa]\ncommand = "npx"\nargs = "x"\n',
    });
    const error = await loadError(loadConfig({ projectRoot: root, env }));
    expect(error.message).toBe(`${projectFile}:3: mcp.servers.exa.args: expected an array; got "x"`);

    const second = await setup({
      project: '[[agent.hooks]]\nevent = "after_turn"\n\n[[agent.hooks]]\ncommand = "x"\n',
    });
    const hookError = await loadError(loadConfig({ projectRoot: second.root, env: second.env }));
    expect(hookError.message).toBe(
      `${second.projectFile}:4: agent.hooks.1.event: required key is missing (expected one of session_start, user_prompt_submit, pre_tool_use, post_tool_use, post_tool_use_failure, permission_request, notification, after_edit, after_turn, subagent_start, subagent_end, compact_context, worktree_create, worktree_remove, config_change, teammate_idle, task_completed)`,
    );
  });

  it("warns about an unknown key with a did-you-mean suggestion and carries on", async () => {
    const { root, env, projectFile } = await setup({
      project: "# project settings\n\n[agent]\nmax_steps = 100\n\n\nmax_step = 50\nwhatever = 1\n",
    });
    const loaded = await loadConfig({ projectRoot: root, env });
    expect(loaded.config.agent.max_steps).toBe(100);
    expect(loaded.warnings).toEqual([
      {
        kind: "unknown-key",
        source: projectFile,
        line: 7,
        keyPath: "agent.max_step",
        message: `warning: ${projectFile}:7: unknown key agent.max_step (did you mean agent.max_steps?)`,
      },
      {
        kind: "unknown-key",
        source: projectFile,
        line: 8,
        keyPath: "agent.whatever",
        message: `warning: ${projectFile}:8: unknown key agent.whatever`,
      },
    ]);
    expect(loaded.origins["agent.max_step"]).toBeUndefined();
  });

  it("warns about unknown keys from env vars and flags by variable and flag name", async () => {
    const { root, env } = await setup();
    const loaded = await loadConfig({
      projectRoot: root,
      env: { ...env, NYZHI_CONFIG__TUI__THEMES: "x" },
      flags: { "agent.trust.mod": "full" },
      flagNames: { "agent.trust.mod": "--trust" },
    });
    expect(loaded.warnings.map((warning) => warning.message)).toEqual([
      "warning: NYZHI_CONFIG__TUI__THEMES: unknown key tui.themes (did you mean tui.theme?)",
      "warning: --trust: unknown key agent.trust.mod (did you mean agent.trust.mode?)",
    ]);
  });
});

describe("reloadConfig", () => {
  it("loads the files again with the options the config was loaded with (flags kept)", async () => {
    const { root, env, projectFile } = await setup({ project: "[agent]\nmax_steps = 40\n" });
    const first = await loadConfig({ cwd: root, env, flags: { "index.enabled": false } });
    expect(first.config.agent.max_steps).toBe(40);
    await writeFiles(root, { ".nyzhi/config.toml": "[agent]\nmax_steps = 12\n" });
    const again = await reloadConfig(first);
    expect(again.config.agent.max_steps).toBe(12);
    expect(again.config.index.enabled).toBe(false);
    expect(again.files.map((file) => file.path)).toContain(projectFile);
  });
});
