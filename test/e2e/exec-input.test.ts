import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { leadRequests } from "./helpers/app-terminal.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/** `@path` and `!command` in `nyz exec` (issue 29, items 1 and 2): the same session verbs as the app. */
let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function setup() {
  mock = await startScenario({ rules: [{ response: { text: "Answered." } }] });
  const workspace = await tempProject("nyzhi-e2e-exec-input-");
  const home = await tempHome();
  await mkdir(join(home, "config"), { recursive: true });
  await writeFile(join(home, "config", "config.toml"), '[agent.trust]\ndeny_paths = [".env"]\n');
  return { workspace, env: anthropicEnv(mock, home) };
}

describe("nyz exec: @path and !command", { timeout: 60_000 }, () => {
  it("@path attaches the file in a <context> block, says so on stderr, and refuses a denied .env", async () => {
    const { workspace, env } = await setup();
    await writeFile(join(workspace, "notes.txt"), "alpha-line\nbeta-line\ngamma-line\n");
    await writeFile(join(workspace, ".env"), "TOKEN=hunter2\n");
    const result = await runNyz(["exec", "summarise @notes.txt and @.env please"], { cwd: workspace, env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe("Answered.");
    expect(result.stderr).toContain("Attached notes.txt (3 lines)");
    expect(result.stderr).toMatch(/warning: not attached: \.env: .*deny_paths rule "\.env"/);
    const sent = leadRequests(mock!).at(-1)!;
    const user = sent.messages.filter((message) => message.role === "user").at(-1)!.text;
    expect(user).toContain(
      '<context>\n<file path="notes.txt" lines="3">\nalpha-line\nbeta-line\ngamma-line\n</file>\n</context>',
    );
    expect(user).toContain("summarise @notes.txt and @.env please");
    expect(JSON.stringify(sent.body)).not.toContain("hunter2");
  });

  it("!command runs the line under the bash tool's rules, prints its output, and the next run's request holds it", async () => {
    const { workspace, env } = await setup();
    const shell = await runNyz(["exec", "--trust", "full", "!echo exec-said-$((6*7))"], {
      cwd: workspace,
      env,
    });
    expect(shell.code).toBe(0);
    expect(shell.stdout).toContain("exec-said-42");
    expect(leadRequests(mock!)).toHaveLength(0);

    const next = await runNyz(["exec", "--continue", "what did it print?"], { cwd: workspace, env });
    expect(next.code).toBe(0);
    const users = leadRequests(mock!)
      .at(-1)!
      .messages.filter((message) => message.role === "user")
      .map((message) => message.text)
      .join("\n");
    expect(users).toContain("echo exec-said-$((6*7))");
    expect(users.indexOf("exec-said-42")).toBeLessThan(users.indexOf("what did it print?"));
  });

  it("!command is refused as the bash tool would be without approval (trust off, nobody to ask)", async () => {
    const { workspace, env } = await setup();
    const shell = await runNyz(["exec", "!echo never-ran"], { cwd: workspace, env });
    expect(shell.code).toBe(1);
    expect(shell.stdout).not.toContain("never-ran\n");
    expect(shell.stderr).toContain("[denied: bash]");
  });
});
