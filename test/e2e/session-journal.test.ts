import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-journal-e2e-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const FILES = ["a.txt", "b.txt", "c.txt"];

describe("a run killed mid-turn", () => {
  it("resumes with --continue holding every finished tool step, calls and results", async () => {
    mock = await startScenario({
      rules: [
        ...FILES.map((file, index) => ({
          match: { requestIndex: index + 1 },
          response: {
            text: `Writing ${file}.`,
            toolCalls: [
              { name: "write", arguments: { file_path: file, content: `${file}\n` }, id: `call_${index}` },
            ],
          },
        })),
        { match: { requestIndex: 4 }, response: { fault: { type: "hang" as const } } },
        { response: { text: "All three are written." } },
      ],
    });
    const env = anthropicEnv(mock, home);
    const child = spawn(process.execPath, [NYZ_BIN, "exec", "--json", "--full-auto", "write three files"], {
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "", HOME: workspace, NYZHI_LOG: "silent", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const closed = new Promise((resolve) => child.on("close", resolve));
    await mock.waitForRequests(4, 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\nnyz stderr:\n${stderr}`);
    });
    child.kill("SIGKILL");
    await closed;
    for (const file of FILES) expect(await readFile(join(workspace, file), "utf8")).toBe(`${file}\n`);

    const resumed = await runNyz(["exec", "--json", "--full-auto", "--continue", "go on"], {
      cwd: workspace,
      env,
      timeoutMs: 30_000,
    });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const request = mock.requests[4]!;
    const calls = request.messages.flatMap((message) => message.toolCalls ?? []);
    const results = request.messages.flatMap((message) => message.toolResults ?? []);
    expect(calls.map((call) => [call.id, call.name, JSON.parse(call.arguments).file_path])).toEqual(
      FILES.map((file, index) => [`call_${index}`, "write", file]),
    );
    expect(results.map((result) => [result.id, result.isError ?? false])).toEqual(
      FILES.map((_, index) => [`call_${index}`, false]),
    );
    expect(request.messages[0]).toMatchObject({ role: "user", text: "write three files" });
    expect(request.messages.at(-1)).toMatchObject({ role: "user", text: "go on" });

    // The finished turn took the journal into the snapshot, which parses.
    const sessions = join(home, "data", "sessions");
    // Beside the session: its lock and its file changes (`<id>.changes/`, for /undo after -c).
    const names = (await readdir(sessions)).filter((name) => !/\.(lock|changes)$/.test(name));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/\.json$/);
    const saved = JSON.parse(await readFile(join(sessions, names[0]!), "utf8"));
    expect(saved.messages).toHaveLength(9);
    expect(saved.messages.at(-1)).toMatchObject({ role: "assistant" });
  }, 90_000);
});
