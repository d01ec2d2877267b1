import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
/** The project, and HOME (runNyz's default), so `~/.aws` lies inside the workspace. */
let workspace: string;
let nyzhiHome: string;

beforeEach(async () => {
  workspace = await realpath(await tempProject("nyzhi-settings-"));
  nyzhiHome = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const dir of [workspace, nyzhiHome]) await rm(dir, { recursive: true, force: true });
});

/** `git` in the workspace, never looking above it for a repository. */
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: workspace,
    encoding: "utf8",
    env: { ...process.env, GIT_CEILING_DIRECTORIES: workspace },
  });

/** One bash call, then a final answer. */
function bashScenario(command: string): Scenario {
  return {
    rules: [
      { match: { lastIsToolResult: true }, response: { text: "done" } },
      { response: { toolCalls: [{ name: "bash", arguments: { command } }] } },
    ],
  };
}

async function nyz(args: string[], env: Record<string, string> = {}) {
  mock ??= await startScenario({ rules: [{ response: { text: "Sure." } }] });
  return runNyz(args, {
    cwd: workspace,
    env: { ...anthropicEnv(mock, nyzhiHome), ...env },
    timeoutMs: 30_000,
  });
}

/** The tool results the model was sent in the last request. */
function toolResultsSent(): string[] {
  const last = mock?.requests.at(-1);
  return (last?.messages ?? []).flatMap((message) =>
    (message.toolResults ?? []).map((result) => result.content),
  );
}

describe("settings nothing reads", () => {
  it("refuses to set a removed key, and warns about one an old config file sets, naming key and file", async () => {
    const refused = await nyz(["config", "set", "agent.auto_commit", "true"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("agent.auto_commit is not used by nyzhi (the setting was removed)");

    const globalFile = join(nyzhiHome, "config", "config.toml");
    await mkdir(join(nyzhiHome, "config"), { recursive: true });
    await writeFile(globalFile, "[agent]\nauto_commit = true\n\n[update]\nenabled = false\n");
    const result = await nyz(["exec", "-q", "hi"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `warning: ${globalFile}:2: agent.auto_commit is not used by nyzhi and is ignored`,
    );
    expect(result.stderr).toContain(
      `warning: ${globalFile}:5: update.enabled is not used by nyzhi and is ignored`,
    );
  });

  it("sets a key nothing reads yet, and says so when setting it and at each run", async () => {
    const set = await nyz(["config", "set", "tui.streaming", "false"]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain(
      "warning: tui.streaming is not read yet: it takes effect in a later version (the app always streams)",
    );
    const result = await nyz(["exec", "-q", "hi"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: .*config\.toml:\d+: tui\.streaming is not read yet/);
  });

  it("sets tui.theme, which the app reads, without a stale 'not read yet' warning", async () => {
    const set = await nyz(["config", "set", "tui.theme", "light", "--project"]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).not.toContain("not read yet");
    const result = await nyz(["exec", "-q", "hi"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("not read yet");
  });

  it("shows models.max_tokens in `nyz config --origin` and masks the API key", async () => {
    await nyz(["config", "set", "models.max_tokens", "8000"]);
    await nyz(["config", "set", "provider.anthropic.api_key", "sk-ant-origin-test-0123456789"]);
    const origin = await nyz(["config", "--origin"]);
    expect(origin.code, origin.stderr).toBe(0);
    expect(origin.stdout).toMatch(/^models\.max_tokens = 8000\b/m);
    expect(origin.stdout).toMatch(/^provider\.anthropic\.api_key = "\[redacted\]"/m);
    expect(origin.stdout).not.toContain("sk-ant-origin-test");
  });
});

describe("shell.sandbox.block_dotfiles (on by default)", () => {
  beforeEach(async () => {
    await mkdir(join(workspace, ".aws"));
    await writeFile(join(workspace, ".aws", "credentials"), "aws_secret_access_key = AWS-E2E-MARKER\n");
  });

  it("refuses `cat ~/.aws/credentials` by default, naming the setting", async () => {
    mock = await startScenario(bashScenario("cat ~/.aws/credentials"));
    const result = await nyz(["exec", "-q", "--full-auto", "go"]);
    expect(result.code, result.stderr).toBe(0);
    const [output] = toolResultsSent();
    expect(output).toContain("blocked by shell.sandbox.block_dotfiles");
    expect(output).not.toContain("AWS-E2E-MARKER");
  });

  it("lets it run with block_dotfiles = false", async () => {
    mock = await startScenario(bashScenario("cat ~/.aws/credentials"));
    const result = await nyz(["exec", "-q", "--full-auto", "go"], {
      NYZHI_CONFIG__SHELL__SANDBOX__BLOCK_DOTFILES: "false",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(toolResultsSent()[0]).toContain("AWS-E2E-MARKER");
  });
});

describe("files of this machine stay out of commits", () => {
  it("`nyz init` in a git repository leaves NYZHI.local.md and config.local.toml untracked and ignored", async () => {
    git("init", "-q");
    const init = await nyz(["init"]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("ignored NYZHI.local.md (in .git/info/exclude)");
    await writeFile(join(workspace, ".nyzhi", "config.local.toml"), "[agent]\nmax_steps = 5\n");
    await writeFile(join(workspace, ".nyzhi", "local.md"), "my notes\n");
    const status = git("status", "--porcelain", "--untracked-files=all");
    expect(status).toContain(".nyzhi/config.toml");
    expect(status).toContain(".nyzhi/.gitignore");
    expect(status).not.toContain("NYZHI.local.md");
    expect(status).not.toContain("config.local.toml");
    expect(status).not.toContain("local.md");
  });

  it("an offloaded tool result lands in .nyzhi/context/, which git ignores", async () => {
    git("init", "-q");
    mock = await startScenario(bashScenario("seq 1 3000"));
    const result = await nyz(["exec", "-q", "--full-auto", "go"]);
    expect(result.code, result.stderr).toBe(0);
    expect(toolResultsSent()[0]).toMatch(/Output written to .*\.nyzhi\/context\/tool-results\//);
    const directory = join(workspace, ".nyzhi", "context", "tool-results");
    const [file] = await readdir(directory);
    expect(file).toBeDefined();
    expect(git("check-ignore", join(directory, file as string)).trim()).toBe(join(directory, file as string));
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("?? .nyzhi/.gitignore\n");
  });
});

describe("nyz export -o -", () => {
  it("writes the export to stdout, and no file named -", async () => {
    const first = await nyz(["exec", "-q", "explain the parser"]);
    expect(first.code, first.stderr).toBe(0);
    const exported = await nyz(["export", "parser", "-o", "-"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^---\ntitle: "explain the parser"/);
    expect(exported.stdout).toContain("## You\n\nexplain the parser");
    expect(exported.stdout).toContain("## Assistant\n\nSure.");
    expect(exported.stdout).not.toContain("Exported session");
    expect(existsSync(join(workspace, "-"))).toBe(false);

    const json = await nyz(["export", "parser", "--format", "json", "-o", "-"]);
    expect(JSON.parse(json.stdout).messages).toHaveLength(2);
  });
});
