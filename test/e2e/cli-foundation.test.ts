import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let project: string;
let home: string;
const run = (args: string[], env: Record<string, string> = {}) =>
  runNyz(args, { cwd: project, env: { NYZHI_HOME: home, ...env } });

beforeEach(async () => {
  project = await tempProject("nyzhi-cli-");
  execFileSync("git", ["init", "-q"], { cwd: project });
  home = await tempHome();
});

describe("nyz entry point", () => {
  it("prints the version and nothing else", async () => {
    const result = await run(["--version"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  it("lists every command with one line in --help, with the exit codes", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["config", "init", "login", "logout", "auth"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    }
    expect(result.stdout).toContain("130  interrupted");
  });

  it("exits 2 on an unknown command or flag, naming it", async () => {
    const unknownCommand = await run(["frobnicate"]);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain("unknown command 'frobnicate'");
    const unknownFlag = await run(["config", "--frob"]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("unknown option '--frob'");
  });

  it("bundles zod's English messages only, and they still explain a bad value", async () => {
    const dist = new URL("../../packages/cli/dist/", import.meta.url);
    const chunks = (await readdir(dist)).filter((name) => name.endsWith(".js"));
    for (const chunk of chunks) {
      const text = await readFile(new URL(chunk, dist), "utf8");
      expect(text, chunk).not.toMatch(/zod\/v4\/locales\/(de|fr|ja)\.js/);
    }
    const result = await run(["config", "set", "agent.max_steps", "many"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('agent.max_steps: expected an integer; got "many"');
  });
});

describe("nyz init and nyz config", () => {
  it("scaffolds .nyzhi/ once and refuses to overwrite", async () => {
    const first = await run(["init"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("created .nyzhi/config.toml");
    expect((await readdir(join(project, ".nyzhi"))).sort()).toEqual(
      expect.arrayContaining(["agents", "config.toml", "rules.md"]),
    );
    await writeFile(join(project, ".nyzhi", "rules.md"), "my rules\n");
    const second = await run(["init"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already exists");
    expect(await readFile(join(project, ".nyzhi", "rules.md"), "utf8")).toBe("my rules\n");
  });

  it("sets a value in the project file, keeps comments, and reports its origin", async () => {
    await run(["init"]);
    const before = await readFile(join(project, ".nyzhi", "config.toml"), "utf8");
    const set = await run(["config", "set", "agent.max_steps", "42"]);
    expect(set.code).toBe(0);
    const after = await readFile(join(project, ".nyzhi", "config.toml"), "utf8");
    expect(after).toContain("max_steps = 42");
    const comments = (text: string) => text.split("\n").filter((line) => line.startsWith("# [")).length;
    expect(comments(after)).toBe(comments(before));
    const get = await run(["config", "get", "agent.max_steps", "--origin"]);
    expect(get.stdout).toBe(`42\n# from project ${join(project, ".nyzhi", "config.toml")}\n`);
  });

  it("refuses an invalid value, naming the key and allowed values, and leaves the file alone", async () => {
    await run(["init"]);
    const file = join(project, ".nyzhi", "config.toml");
    const before = await readFile(file, "utf8");
    const result = await run(["config", "set", "agent.trust.mode", "fulll"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'agent.trust.mode: expected one of off, limited, autoedit, full; got "fulll"',
    );
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("reports a TOML syntax error with file:line:column and the line", async () => {
    await mkdir(join(project, ".nyzhi"));
    await writeFile(join(project, ".nyzhi", "config.toml"), "[agent]\nmax_steps = = 3\n");
    const result = await run(["config"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${join(project, ".nyzhi", "config.toml")}:2:13`);
    expect(result.stderr).toContain("2 | max_steps = = 3");
    expect(result.stdout).toBe("");
  });

  it("shows flag and environment layers with their origins, and masks secrets", async () => {
    await mkdir(join(project, ".nyzhi"));
    await writeFile(
      join(project, ".nyzhi", "config.toml"),
      '[provider.openai]\napi_key = "sk-secret-value-123456"\n',
    );
    const result = await run(["-p", "anthropic", "config", "--origin"], { NYZHI_TRUST: "full" });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^provider\.default = "anthropic"\s+# flag --provider$/m);
    expect(result.stdout).toMatch(/^agent\.trust\.mode = "full"\s+# env NYZHI_TRUST$/m);
    const toml = await run(["config"]);
    expect(toml.stdout).not.toContain("sk-secret-value-123456");
  });

  it("writes logs to the data dir, never to stdout", async () => {
    const result = await run(["config", "get", "nope.nothing"], { NYZHI_LOG: "debug" });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const logs = await readdir(join(home, "data", "logs"));
    expect(logs).toContain("nyzhi.log");
  });
});
