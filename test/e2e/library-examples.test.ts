import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type MockLlm, startMockLlm } from "../../tools/mock-llm/src/index.js";
import { tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * The library examples (examples/library, docs/library.md), built by `pnpm build`, each run as a
 * program against the scripted mock model in a small project of its own.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function runExample(name: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  mock = await startMockLlm({ scenarioFile: join(root, "examples/library/scenarios", `${name}.json`) });
  const project = await tempProject(`nyzhi-example-${name}-`);
  await writeFile(
    join(project, "README.md"),
    "# greet\n\nA small greeting library.\n\nUsage: greet(name).\n",
  );
  const home = await tempHome();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    NYZHI_HOME: home,
    HOME: home,
    NYZHI_PROVIDER: "anthropic",
    ANTHROPIC_API_KEY: "example-offline",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "examples/library/dist", `${name}.js`)], {
      cwd: project,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the library examples against the mock", () => {
  it("one-shot: streams the lead's answer and its usage", async () => {
    const { code, stdout, stderr } = await runExample("one-shot");
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("[read]");
    expect(stdout).toContain("This project is a small greeting library (scripted answer).");
    expect(stdout).toMatch(/completed in 2 steps · \d+ in \/ \d+ out tokens · \$\d+\.\d{4}/);
  }, 120_000);

  it("custom-tool: the model calls the program's own tool, validated and run by nyzhi", async () => {
    const { code, stdout, stderr } = await runExample("custom-tool");
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("count_lines → README.md: 6 lines");
    expect(stdout).toContain("(scripted answer)");
  }, 120_000);

  it("fan-out: three subagents of a role defined in code, waited for, one resumed", async () => {
    const { code, stdout, stderr } = await runExample("fan-out");
    expect(code, stderr).toBe(0);
    expect(stdout.match(/^spawned \S+ \(summarizer\) on /gm)).toHaveLength(3);
    expect(stdout.match(/finished: Explored my part \(scripted answer\)\./g)).toHaveLength(3);
    expect(stdout).toContain("finished: Follow-up answered (scripted answer).");
    expect(stdout).toMatch(/^3 answers · \d+ in \/ \d+ out · \$\d+\.\d{4}$/m);
  }, 120_000);

  it("team: the lead forms a team of two that report back", async () => {
    const { code, stdout, stderr } = await runExample("team");
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("lead → team_create");
    expect(stdout).toContain("lead → spawn_teammate");
    expect(stdout).toContain("Both sections are done (scripted answer).");
  }, 180_000);
});
