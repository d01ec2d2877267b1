import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, MockToolCall } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

// define_agent / remove_agent declare the agents.json they write, so the sandbox, the deny rules
// and the trust mode judge it like any other write (docs/security.md, "What a tool declares").

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await realpath(await tempProject("nyzhi-agents-sandbox-"));
  home = await realpath(await tempHome());
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const globalFile = () => join(home, "config", "agents.json");
const projectFile = () => join(workspace, ".nyzhi", "agents.json");
const defineCall = (name: string, scope: "project" | "global"): MockToolCall => ({
  name: "define_agent",
  arguments: { name, description: `${name} helps`, prompt: `You are ${name}.`, scope },
});

/** Runs `nyz exec --json` where the model makes `calls` in one step, then answers "done". */
async function execWithCalls(calls: MockToolCall[], flags: { trust: string; sandbox?: string }) {
  mock = await startScenario({
    rules: [
      { match: { lastIsToolResult: true }, response: { text: "done" } },
      { response: { toolCalls: calls } },
    ],
  });
  const sandbox = flags.sandbox ? ["--sandbox", flags.sandbox] : [];
  const result = await runNyz(["--trust", flags.trust, "exec", ...sandbox, "--json", "manage the agents"], {
    cwd: workspace,
    env: anthropicEnv(mock, home),
    timeoutMs: 60_000,
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const events = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  // The fields these tests judge (ids, arguments and timing are checked in exec.test.ts).
  const pick = (event: Record<string, unknown>, keys: string[]) =>
    Object.fromEntries(keys.filter((key) => key in event).map((key) => [key, event[key]]));
  const done = events
    .filter((event) => event.type === "tool_done")
    .map((event) => pick(event, ["type", "name", "output", "refused"]));
  const denied = events
    .filter((event) => event.type === "approval_denied")
    .map((event) => pick(event, ["type", "tool", "reason"]));
  return { done, denied };
}

describe("define_agent and remove_agent under the sandbox and trust (built nyz exec)", () => {
  it("read-only refuses the global agents.json, even in trust mode full", async () => {
    await mkdir(join(home, "config"), { recursive: true });
    const before = `${JSON.stringify({ old: { description: "d", prompt: "p" } }, null, 2)}\n`;
    await writeFile(globalFile(), before);
    const { done } = await execWithCalls(
      [
        defineCall("global-one", "global"),
        { name: "remove_agent", arguments: { name: "old", scope: "global" } },
      ],
      { trust: "full", sandbox: "read-only" },
    );
    const refusal = (tool: string) =>
      `Tool \`${tool}\` was denied: blocked by the sandbox: Writing ${globalFile()} is not allowed: the sandbox is read-only.`;
    expect(done).toEqual([
      { type: "tool_done", name: "define_agent", output: refusal("define_agent"), refused: "denied" },
      { type: "tool_done", name: "remove_agent", output: refusal("remove_agent"), refused: "denied" },
    ]);
    expect(await readFile(globalFile(), "utf8")).toBe(before);
  }, 90_000);

  it("autoedit asks for the global file (denied headless) and lets the project file be written", async () => {
    const { done, denied } = await execWithCalls(
      [defineCall("global-one", "global"), defineCall("project-one", "project")],
      { trust: "autoedit" },
    );
    expect(denied).toEqual([{ type: "approval_denied", tool: "define_agent", reason: expect.any(String) }]);
    expect(done).toEqual([
      {
        type: "tool_done",
        name: "define_agent",
        output: expect.stringMatching(/^Tool `define_agent` was not approved: /),
        refused: "denied",
      },
      {
        type: "tool_done",
        name: "define_agent",
        output: expect.stringContaining(
          `Defined agent 'project-one' in the project agents.json (${projectFile()})`,
        ),
      },
    ]);
    await expect(readFile(globalFile(), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    expect(JSON.parse(await readFile(projectFile(), "utf8"))).toEqual({
      "project-one": { description: "project-one helps", prompt: "You are project-one." },
    });
    // The model was told why, so it can say so or try the project scope.
    const toolResults = mock!.requests.at(-1)!.messages.at(-1)!.toolResults!;
    expect(toolResults[0]!.content).toContain("not approved");
  }, 90_000);

  it("workspace-write lets a trusted call write the global file in the config dir", async () => {
    const { done } = await execWithCalls([defineCall("global-one", "global")], { trust: "full" });
    expect(done).toEqual([
      {
        type: "tool_done",
        name: "define_agent",
        output: expect.stringContaining(
          `Defined agent 'global-one' in the global agents.json (${globalFile()})`,
        ),
      },
    ]);
    expect(JSON.parse(await readFile(globalFile(), "utf8"))).toEqual({
      "global-one": { description: "global-one helps", prompt: "You are global-one." },
    });
  }, 90_000);
});
