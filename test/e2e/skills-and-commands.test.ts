import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-skills-"));
  home = await tempHome();
  await mkdir(join(workspace, ".nyzhi", "skills", "deploy"), { recursive: true });
  await writeFile(
    join(workspace, ".nyzhi", "skills", "deploy", "SKILL.md"),
    "---\nname: deploy\ndescription: Ship a release to staging\n---\nRun the deploy script, then check health.\n",
  );
  await mkdir(join(workspace, ".claude", "skills", "lint"), { recursive: true });
  await writeFile(
    join(workspace, ".claude", "skills", "lint", "SKILL.md"),
    "---\nname: lint\ndescription: Lint the code base\n---\nRun eslint.\n",
  );
  await mkdir(join(workspace, ".nyzhi", "commands"), { recursive: true });
  await writeFile(
    join(workspace, ".nyzhi", "commands", "review.md"),
    "# Review code\nReview $ARGUMENTS for bugs and report by severity.\n",
  );
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("skills and custom commands", () => {
  it("nyz skills lists both skill layouts and the custom commands", async () => {
    const result = await runNyz(["skills"], { cwd: workspace, env: { NYZHI_HOME: home } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Skills (2):");
    expect(result.stdout).toContain("- deploy (nyzhi): Ship a release to staging");
    expect(result.stdout).toContain("- lint (claude): Lint the code base");
    expect(result.stdout).toContain("/review  Review code");
  });

  it("puts the skills index in the system prompt, loads a skill, and expands /review with its arguments", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "load_skill", arguments: { name: "deploy" } }] },
        },
        { response: { text: "reviewed" } },
      ],
    });
    const result = await runNyz(["exec", "-q", "--full-auto", "/review src/app.ts"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result).toMatchObject({ code: 0, stdout: "reviewed\n" });
    const first = mock.requests[0]!;
    expect(first.system).toContain("# Available Skills");
    expect(first.system).toContain("- **deploy**: Ship a release to staging");
    expect(first.messages[0]!.text).toBe("Review src/app.ts for bugs and report by severity.");
    expect(mock.requests[1]!.messages.at(-1)!.toolResults![0]!.content).toContain(
      "Run the deploy script, then check health.",
    );
    const unknown = await runNyz(["exec", "-q", "/nope"], { cwd: workspace, env: anthropicEnv(mock, home) });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown command /nope. Commands here: /review");
  });
  it("runs a skill as a slash command in nyz exec: /deploy asks the model to load and follow it", async () => {
    mock = await startScenario({ rules: [{ response: { text: "deployed" } }] });
    const result = await runNyz(["exec", "-q", "--full-auto", "/deploy to staging now"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result).toMatchObject({ code: 0, stdout: "deployed\n" });
    expect(mock.requests[0]!.messages[0]!.text).toBe(
      'Use the skill "deploy": load it with load_skill and follow it.\n\nto staging now',
    );
  });
});
