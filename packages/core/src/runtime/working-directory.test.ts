import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { defaultConfig, type NyzhiConfig, resolveDirs } from "@nyzhi/config";
import { type MockLlm, type MockToolCall, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockLanguageModel } from "../agent-loop/testing/mock-language-model.js";
import type { AgentEvent } from "../events/agent-events.js";
import { hookConfig } from "../hooks/testing/hook-sandbox.js";
import { projectMemoryDir } from "../memory/memory-paths.js";
import { createAgentRuntime } from "./create-agent-runtime.js";

let mock: MockLlm | undefined;
/** The project root (it has `.git`), with a subdirectory `sub` the user starts in. */
let root: string;
let sub: string;
let home: string;

beforeEach(async () => {
  const parent = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-working-directory-")));
  root = join(parent, "project");
  sub = join(root, "sub");
  home = join(parent, "home");
  await mkdir(join(root, ".git"), { recursive: true });
  await mkdir(sub, { recursive: true });
  await mkdir(home);
  await writeFile(join(root, "file.txt"), "the root's file\n");
  await writeFile(join(sub, "file.txt"), "the subdirectory's file\n");
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(dirname(root), { recursive: true, force: true });
});

/** One step of tool calls, then "done"; trust `full` so nothing asks. */
async function runInSub(toolCalls: MockToolCall[]) {
  mock = await startMockLlm({
    scenario: {
      rules: [
        { match: { lastIsToolResult: false }, response: { toolCalls } },
        { response: { text: "done" } },
      ],
    },
  });
  const config: NyzhiConfig = defaultConfig();
  config.agent.trust.mode = "full";
  config.agent.agents.enabled = false;
  config.agent.hooks = [
    // Hooks run in the project root; the files they are given resolve from the working directory.
    hookConfig("post_tool_use", {
      command: "pwd > hook-pwd.txt; cat > hook-stdin.json; echo {file} >> hook-files.txt",
      tool_name: "write",
    }),
  ];
  const env = { PATH: process.env.PATH, HOME: home, NYZHI_HOME: join(home, "nyzhi") };
  const runtime = createAgentRuntime({
    config,
    model: mockLanguageModel(mock, { modelId: "claude-sonnet-4-6-20260217" }),
    cwd: sub,
    projectRoot: root,
    env,
  });
  const events: AgentEvent[] = [];
  const turn = runtime.runTurn("go", { signal: new AbortController().signal });
  for (let next = await turn.next(); !next.done; next = await turn.next()) events.push(next.value);
  await runtime.close();
  const outputs = new Map<string, string>();
  for (const event of events) if (event.type === "tool-end") outputs.set(event.callId, event.output);
  return { outputs, env };
}

describe("working directory and project root", () => {
  it("runs commands and resolves relative paths in the working directory, bounded by the project root", async () => {
    const { outputs } = await runInSub([
      { id: "pwd", name: "bash", arguments: { command: "pwd" } },
      { id: "read", name: "read", arguments: { file_path: "file.txt" } },
      { id: "up", name: "write", arguments: { file_path: "../written-from-sub.txt", content: "up\n" } },
      { id: "escape", name: "write", arguments: { file_path: "../../escape.txt", content: "no\n" } },
    ]);
    expect(outputs.get("pwd")).toBe(sub);
    expect(outputs.get("read")).toContain("the subdirectory's file");
    // Inside the project root, though above the working directory: allowed.
    expect(await readFile(join(root, "written-from-sub.txt"), "utf8")).toBe("up\n");
    // Outside the project root: refused, as before.
    expect(outputs.get("escape")).toMatch(/outside the workspace|sandbox/i);
    expect(existsSync(join(dirname(root), "escape.txt"))).toBe(false);
    expect(await readFile(join(root, "hook-pwd.txt"), "utf8")).toBe(`${root}\n`);
    expect(JSON.parse(await readFile(join(root, "hook-stdin.json"), "utf8"))).toMatchObject({ cwd: sub });
    expect((await readFile(join(root, "hook-files.txt"), "utf8")).trim().split("\n")).toEqual([
      join(root, "written-from-sub.txt"),
    ]);
  });

  it("keeps the project's files at the project root and tells the model both directories", async () => {
    const { outputs, env } = await runInSub([
      { id: "note", name: "notepad_write", arguments: { plan: "p", category: "learnings", content: "x" } },
      { id: "memory", name: "memory_write", arguments: { topic: "build", content: "pnpm build" } },
    ]);
    expect(outputs.get("note")).toContain("Added to learnings");
    expect(existsSync(join(root, ".nyzhi/notepads/p.md"))).toBe(true);
    expect(existsSync(join(sub, ".nyzhi"))).toBe(false);
    const memory = await projectMemoryDir(root, resolveDirs(env));
    expect(await readFile(join(memory, "build.md"), "utf8")).toContain("pnpm build");
    const system = mock?.requests[0]?.system ?? "";
    expect(system).toContain(`- Working directory: ${sub}\n- Project root: ${root}\n`);
  });
});
