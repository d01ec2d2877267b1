import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BwrapStatus, detectBwrap } from "@nyzhi/core";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const API_KEY = "sk-ant-e2e-secret-key-0123456789";
const SSH_KEY = "PRIVATE-KEY-MARKER";
const DOTENV = "DOTENV-MARKER";

const bwrap: BwrapStatus = await detectBwrap();

let mock: MockLlm | undefined;
let workspace: string;
let nyzhiHome: string;
/** The user's HOME, outside /tmp: the sandbox's private /tmp would hide one inside it anyway. */
let userHome: string;

beforeEach(async () => {
  workspace = await realpath(await tempProject("nyzhi-secrets-"));
  nyzhiHome = await tempHome();
  userHome = await realpath(await mkdtemp("/var/tmp/nyzhi-user-home-"));
  await mkdir(join(userHome, ".ssh"));
  await writeFile(join(userHome, ".ssh", "id_rsa"), `${SSH_KEY}\n`);
  await writeFile(join(workspace, ".env"), `${DOTENV}\n`);
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const dir of [workspace, nyzhiHome, userHome]) await rm(dir, { recursive: true, force: true });
});

/** One bash call per command, each after the previous result, then a final answer. */
function bashScenario(commands: readonly string[]): Scenario {
  return {
    rules: [
      {
        match: { lastIsToolResult: true },
        response: [
          ...commands.slice(1).map((command) => ({ toolCalls: [{ name: "bash", arguments: { command } }] })),
          { text: "done" },
        ],
      },
      { response: { toolCalls: [{ name: "bash", arguments: { command: commands[0] } }] } },
    ],
  };
}

async function exec(commands: readonly string[], env: Record<string, string> = {}) {
  mock = await startScenario(bashScenario(commands));
  const result = await runNyz(["exec", "--json", "--full-auto", "go"], {
    cwd: workspace,
    env: {
      ...anthropicEnv(mock, nyzhiHome),
      ANTHROPIC_API_KEY: API_KEY,
      HOME: userHome,
      NYZHI_CONFIG__AGENT__TRUST__DENY_PATHS: '["~/.ssh", ".env"]',
      ...env,
    },
    timeoutMs: 30_000,
  });
  expect(result.code, result.stderr).toBe(0);
  const events = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string });
  const outputs = events
    .filter((event) => event.type === "tool_done" && event.name === "bash")
    .map((event) => event.output ?? "");
  expect(outputs).toHaveLength(commands.length);
  return { outputs, requests: mock.requests };
}

describe("nyz exec: what the bash tool can see", () => {
  it("leaves credentials out of the environment, except those shell.env_passthrough names", async () => {
    const { outputs, requests } = await exec(["env"], {
      MY_TOKEN: "my-token-value",
      KEEP_TOKEN: "kept-token-value",
      PLAIN_SETTING: "plain-value",
      NYZHI_CONFIG__SHELL__ENV_PASSTHROUGH: '["KEEP_*"]',
    });
    const env = outputs[0]!;
    expect(env).toContain("PLAIN_SETTING=plain-value");
    // Its value may be redacted in what the model is shown; the variable itself is there.
    expect(env).toMatch(/^KEEP_TOKEN=(kept-token-value|\[redacted\])$/m);
    expect(env).not.toContain("ANTHROPIC_API_KEY");
    expect(env).not.toContain(API_KEY);
    expect(env).not.toContain("MY_TOKEN");
    // The run itself used the key.
    expect(requests[0]?.headers["x-api-key"]).toBe(API_KEY);
  });

  it.skipIf(!bwrap.available)(
    "hides denied files from commands however they name them (bubblewrap)",
    async () => {
      const { outputs } = await exec([
        "cat ~/.ssh/id_rsa",
        'cat "$HOME/.ssh/id_rsa"',
        "cat $(printf ~/.s; printf sh/id_rsa)",
        "cat $(printf .e; printf nv)",
        "ls -a $(printf ~/.s; printf sh); echo listed",
      ]);
      for (const output of outputs) {
        expect(output).not.toContain(SSH_KEY);
        expect(output).not.toContain(DOTENV);
      }
      // The plain forms are refused by name before they run; the others run, and find nothing.
      expect(outputs[0]).toMatch(/denied by the deny_paths rule "~\/.ssh"/);
      expect(outputs[1]).toMatch(/denied by the deny_paths rule "~\/.ssh"/);
      expect(outputs[2]).toMatch(/No such file or directory/);
      expect(outputs[3]).toMatch(/\.env: Permission denied/);
      expect(outputs[4]).not.toContain("id_rsa");
      expect(outputs[4]).toContain("listed");
    },
  );
});
