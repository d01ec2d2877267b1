import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parse } from "smol-toml";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../base/config-error.js";
import { useTempDirs } from "../testing/temp-dirs.js";
import { setConfigValue } from "./set-config-value.js";

const temp = useTempDirs();
afterEach(() => temp.cleanup());

const ORIGINAL = `# Global nyzhi settings
[provider]
default = "openai"  # the usual one

[agent]
# steps per turn
max_steps = 50

[agent.trust]
mode = "off"  # ask for everything
deny_tools = [
  "bash",  # never
]
`;

async function configFile(content: string | undefined, name = "config.toml"): Promise<string> {
  const directory = await temp.make();
  const file = join(directory, name);
  if (content !== undefined) await writeFile(file, content, { mode: 0o600 });
  return file;
}

describe("setConfigValue", () => {
  it("replaces an existing value in place, keeping every comment and other key", async () => {
    const file = await configFile(ORIGINAL);
    const result = await setConfigValue(file, "agent.trust.mode", "full");
    expect(result).toEqual({
      file,
      keyPath: "agent.trust.mode",
      value: "full",
      previous: "off",
      preservedComments: true,
    });
    expect(await readFile(file, "utf8")).toBe(ORIGINAL.replace('mode = "off"', 'mode = "full"'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("replaces a multi-line array value", async () => {
    const file = await configFile(ORIGINAL);
    await setConfigValue(file, "agent.trust.deny_tools", '["rm", "curl"]');
    expect(await readFile(file, "utf8")).toBe(
      ORIGINAL.replace('deny_tools = [\n  "bash",  # never\n]', 'deny_tools = ["rm", "curl"]'),
    );
  });

  it("inserts a new key into its existing table, after the table's last key", async () => {
    const file = await configFile(ORIGINAL);
    await setConfigValue(file, "agent.max_concurrent_streams", "2");
    expect(await readFile(file, "utf8")).toBe(
      ORIGINAL.replace("max_steps = 50\n", "max_steps = 50\nmax_concurrent_streams = 2\n"),
    );
  });

  it("refuses a key nyzhi no longer has, naming it, and leaves the file alone", async () => {
    const file = await configFile(ORIGINAL);
    for (const key of ["agent.auto_commit", "update.enabled", "external_notify.webhook_url"]) {
      const error = await setConfigValue(file, key, "true").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toBe(
        `${file}: ${key} is not used by nyzhi (the setting was removed); nothing was written`,
      );
    }
    expect(await readFile(file, "utf8")).toBe(ORIGINAL);
  });

  it("writes a key nothing reads yet, and says so", async () => {
    const file = await configFile(ORIGINAL);
    const result = await setConfigValue(file, "tui.streaming", "false");
    expect(result.warning).toBe(
      "warning: tui.streaming is not read yet: it takes effect in a later version (the app always streams)",
    );
    expect(parse(await readFile(file, "utf8")).tui).toEqual({ streaming: false });
  });

  it("writes tui.theme (the app reads it) without a warning", async () => {
    const file = await configFile(ORIGINAL);
    const result = await setConfigValue(file, "tui.theme", "light");
    expect(result.warning).toBeUndefined();
    expect(parse(await readFile(file, "utf8")).tui).toEqual({ theme: "light" });
  });

  it("inserts a dotted key into the deepest existing table", async () => {
    const file = await configFile(ORIGINAL);
    await setConfigValue(file, "agent.retry.max_retries", "5");
    expect(await readFile(file, "utf8")).toBe(
      ORIGINAL.replace("max_steps = 50\n", "max_steps = 50\nretry.max_retries = 5\n"),
    );
  });

  it("appends a new table when no table contains the key", async () => {
    const file = await configFile(ORIGINAL);
    await setConfigValue(file, "mcp.servers.exa", '{ command = "npx", args = ["-y", "exa-mcp-server"] }');
    expect(await readFile(file, "utf8")).toBe(
      `${ORIGINAL}\n[mcp.servers]\nexa = { command = "npx", args = ["-y", "exa-mcp-server"] }\n`,
    );
  });

  it("creates a missing file", async () => {
    const file = await configFile(undefined);
    const result = await setConfigValue(file, "tui.theme", "light");
    expect(result.previous).toBeUndefined();
    expect(await readFile(file, "utf8")).toBe('[tui]\ntheme = "light"\n');
  });

  it("reads the value as a TOML literal when it parses, else as a string", async () => {
    const file = await configFile("");
    expect((await setConfigValue(file, "agent.max_steps", "30")).value).toBe(30);
    expect((await setConfigValue(file, "tui.theme", "nyzhi-dark")).value).toBe("nyzhi-dark");
    expect((await setConfigValue(file, "tui.accent", '"42"')).value).toBe("42");
    expect(await readFile(file, "utf8")).toBe(
      '[agent]\nmax_steps = 30\n\n[tui]\ntheme = "nyzhi-dark"\naccent = "42"\n',
    );
  });

  it("leaves the file untouched and names key and allowed values on a validation error", async () => {
    const file = await configFile(ORIGINAL);
    const error = await setConfigValue(file, "agent.trust.mode", "fulll").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `${file}: agent.trust.mode: expected one of off, limited, autoedit, full; got "fulll"`,
    );
    expect((error as ConfigError).keyPath).toBe("agent.trust.mode");
    expect(await readFile(file, "utf8")).toBe(ORIGINAL);
  });

  it("refuses an unknown key with a suggestion, file untouched", async () => {
    const file = await configFile(ORIGINAL);
    const error = await setConfigValue(file, "agent.max_step", "3").catch((caught: unknown) => caught);
    expect((error as ConfigError).message).toBe(
      `${file}: unknown key agent.max_step (did you mean agent.max_steps?)`,
    );
    expect(await readFile(file, "utf8")).toBe(ORIGINAL);
  });

  it("refuses a global-only key in a project file", async () => {
    const directory = await temp.make();
    const file = join(directory, ".nyzhi", "config.toml");
    for (const key of ["projects", "projects.work.trusted"]) {
      const error = await setConfigValue(file, key, "true").catch((caught: unknown) => caught);
      expect((error as ConfigError).code).toBe("config_global_only");
      expect((error as ConfigError).message).toBe(
        `${file}: projects can only be set in the global config file (use --global)`,
      );
    }
  });

  it("refuses to touch a file with invalid TOML", async () => {
    const file = await configFile("[agent\n");
    const error = await setConfigValue(file, "agent.max_steps", "3").catch((caught: unknown) => caught);
    expect((error as ConfigError).code).toBe("config_invalid_toml");
    expect(await readFile(file, "utf8")).toBe("[agent\n");
  });

  it("falls back to re-serialising when the text edit cannot express the change", async () => {
    const file = await configFile('[agent]\ntrust = { mode = "off" }\n');
    const result = await setConfigValue(file, "agent.trust.allow_tools", '["read"]');
    expect(result.preservedComments).toBe(false);
    expect(await readFile(file, "utf8")).toBe('[agent.trust]\nmode = "off"\nallow_tools = [ "read" ]\n');
  });

  it("keeps every key when many writers set different keys of one file at the same time", async () => {
    const file = await configFile(ORIGINAL);
    const names = Array.from({ length: 40 }, (_, index) => `r${index}`);
    await Promise.all(
      names.map((name) => setConfigValue(file, `agent.agents.roles.${name}.description`, `role ${name}`)),
    );
    const written = parse(await readFile(file, "utf8")) as { agent: { agents: { roles: object } } };
    expect(written.agent.agents.roles).toEqual(
      Object.fromEntries(names.map((name) => [name, { description: `role ${name}` }])),
    );
    // The lock is released and no temp file is left.
    expect(await readdir(dirname(file))).toEqual(["config.toml"]);
  });
});
