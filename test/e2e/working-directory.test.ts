import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
/** The project root (its own `.git`, so nothing above the temp dir decides it). */
let project: string;
let sub: string;
let home: string;

beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-workdir-")));
  sub = join(project, "sub");
  await mkdir(join(project, ".git"));
  await mkdir(sub);
  await writeFile(join(project, "file.txt"), "ROOT-FILE\n");
  await writeFile(join(sub, "file.txt"), "SUB-FILE\n");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("nyz started in a subdirectory of the project", () => {
  it("runs commands and resolves relative paths there, and keeps the session with the project root", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { lastUser: "run pwd", lastIsToolResult: false },
          response: {
            toolCalls: [
              { id: "call-pwd", name: "bash", arguments: { command: "pwd" } },
              { id: "call-read", name: "read", arguments: { file_path: "file.txt" } },
            ],
          },
        },
        { match: { lastIsToolResult: true }, response: { text: "Ran it." } },
        { response: { text: "Continued." } },
      ],
    });
    const env = anthropicEnv(mock, home);
    const run = await runNyz(["exec", "--full-auto", "run pwd"], { cwd: sub, env });
    expect(run.code).toBe(0);

    const [first, second] = mock.requests;
    expect(first?.system).toContain(`- Working directory: ${sub}\n- Project root: ${project}\n`);
    const results = new Map(
      (second?.messages ?? []).flatMap((message) => message.toolResults ?? []).map((r) => [r.id, r.content]),
    );
    expect(results.get("call-pwd")).toBe(sub);
    expect(results.get("call-read")).toContain("SUB-FILE");
    expect(results.get("call-read")).not.toContain("ROOT-FILE");

    // The session belongs to the project root: listed there, and `--continue` there finds it.
    const listed = await runNyz(["sessions", "--json"], { cwd: project, env });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ projectRoot: project, messageCount: 4 }]);
    const continued = await runNyz(["exec", "-q", "--continue", "and now?"], { cwd: project, env });
    expect(continued.code).toBe(0);
    expect(continued.stdout).toBe("Continued.\n");
    expect(mock.requests.at(-1)?.messages.map((message) => message.text)).toContain("run pwd");
  });
});
