import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { defineAgentTool } from "./define-agent-tool.js";
import { removeAgentTool } from "./remove-agent-tool.js";

let test: TestContext | undefined;
afterEach(async () => {
  await test?.cleanup();
  test = undefined;
});

const definition = (name: string) => ({ description: `${name} helps`, prompt: `You are ${name}.` });
const define = (name: string) => runTool(defineAgentTool, { name, ...definition(name) }, test!.context);
const remove = (name: string) => runTool(removeAgentTool, { name }, test!.context);
const projectFile = () => join(test!.cwd, ".nyzhi/agents.json");
const readEntries = async () => JSON.parse(await readFile(projectFile(), "utf8")) as Record<string, unknown>;
const names = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}`);

describe("agents.json tools running at the same time", () => {
  it("keeps every definition of 8 parallel define_agent calls", async () => {
    test = await createTestContext();
    const results = await Promise.all(names("agent", 8).map(define));
    expect(results.map((result) => result.isError ?? false)).toEqual(Array(8).fill(false));
    expect(await readEntries()).toEqual(
      Object.fromEntries(names("agent", 8).map((name) => [name, definition(name)])),
    );
    const leftovers = (await readdir(join(test.cwd, ".nyzhi"))).filter((file) => file !== "agents.json");
    expect(leftovers).toEqual([]);
  });

  it("loses nothing when remove_agent races define_agent", async () => {
    test = await createTestContext();
    await mkdir(join(test.cwd, ".nyzhi"), { recursive: true });
    await writeFile(
      projectFile(),
      JSON.stringify(Object.fromEntries(names("old", 8).map((name) => [name, definition(name)]))),
    );
    const calls = names("old", 8).flatMap((old, index) => [remove(old), define(`new-${index}`)]);
    const results = await Promise.all(calls);
    expect(results.filter((result) => result.isError)).toEqual([]);
    expect(await readEntries()).toEqual(
      Object.fromEntries(names("new", 8).map((name) => [name, definition(name)])),
    );
  });

  it("refuses every parallel write to a malformed file and leaves it untouched", async () => {
    test = await createTestContext();
    await mkdir(join(test.cwd, ".nyzhi"), { recursive: true });
    await writeFile(projectFile(), "{ oops");
    const results = await Promise.all([...names("agent", 4).map(define), remove("agent-0")]);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.output).toContain(`${projectFile()} is not valid JSON`);
    }
    expect(await readFile(projectFile(), "utf8")).toBe("{ oops");
    expect(await readdir(join(test.cwd, ".nyzhi"))).toEqual(["agents.json"]);
  });
});
