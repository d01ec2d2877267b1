import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentContext, ToolCallHooks } from "../agent-loop/agent-context.js";
import { allowAllGate } from "../agent-loop/agent-context.js";
import { executeToolCalls } from "../agent-loop/execute-tool-calls.js";
import { applyPatchTool } from "../tools/files/apply-patch/apply-patch-tool.js";
import { editTool } from "../tools/files/edit-tool.js";
import { writeTool } from "../tools/files/write-tool.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { ToolRegistry } from "../tools/seam/tool-registry.js";
import { createTestContext, type TestContext } from "../tools/testing/create-test-context.js";
import { filesNamedBy } from "./files-named-by.js";
import type { HookConfig } from "./hook-types.js";
import { createHookSandbox, type HookSandbox, hookConfig } from "./testing/hook-sandbox.js";
import { toolCallHooks } from "./tool-call-hooks.js";

let sandbox: HookSandbox;
let tools: TestContext;
beforeEach(async () => {
  sandbox = await createHookSandbox();
  tools = await createTestContext({ cwd: sandbox.dir });
});
afterEach(async () => {
  await sandbox.cleanup();
});

const hooksFor = (configs: HookConfig[]) => toolCallHooks(sandbox.runner(configs), { sessionId: "s1" });

/** What the loop does around one call: parse, beforeToolCall, run unless blocked, afterToolCall. */
async function callLikeTheLoop(hooks: ToolCallHooks, tool: Tool, rawInput: unknown) {
  const parsed = tool.parse(rawInput);
  if (!parsed.ok) throw new Error(parsed.error);
  const blocked = await hooks.beforeToolCall?.({ callId: "c1", name: tool.name, input: parsed.input });
  if (blocked?.block) return { blocked: blocked.block };
  const result = await tool.run(parsed.input, tools.context);
  await hooks.afterToolCall?.({
    callId: "c1",
    name: tool.name,
    input: parsed.input,
    output: result.output,
    isError: result.isError === true,
  });
  return { result };
}

describe("pre_tool_use blocking", () => {
  const write = { file_path: "a.txt", content: "hello" };

  it("blocks when the failing hook itself has block = true, with its stderr as the reason", async () => {
    const hooks = hooksFor([
      hookConfig("pre_tool_use", { command: "echo 'no writes today' >&2; exit 1", block: true }),
    ]);
    expect(await callLikeTheLoop(hooks, writeTool, write)).toEqual({ blocked: "no writes today" });
    await expect(readFile(join(sandbox.dir, "a.txt"), "utf8")).rejects.toThrow();
  });

  it("does not block when the failing hook has block = false", async () => {
    const hooks = hooksFor([hookConfig("pre_tool_use", { command: "echo warn >&2; exit 1" })]);
    const outcome = await callLikeTheLoop(hooks, writeTool, write);
    expect(outcome.blocked).toBeUndefined();
    expect(await readFile(join(sandbox.dir, "a.txt"), "utf8")).toBe("hello");
  });

  it("does not block on another hook's failure (a block = true hook that succeeds)", async () => {
    const hooks = hooksFor([
      hookConfig("pre_tool_use", { command: "true", block: true }),
      hookConfig("pre_tool_use", { command: "exit 1" }),
    ]);
    expect((await callLikeTheLoop(hooks, writeTool, write)).blocked).toBeUndefined();
  });

  it("always blocks on exit code 2, with stderr as the reason", async () => {
    const hooks = hooksFor([hookConfig("pre_tool_use", { command: "echo 'use edit instead' >&2; exit 2" })]);
    expect(await callLikeTheLoop(hooks, writeTool, write)).toEqual({ blocked: "use edit instead" });
  });

  it("blocks on a JSON block decision printed on stdout", async () => {
    const hooks = hooksFor([
      hookConfig("pre_tool_use", { command: `printf '{"decision":"block","reason":"protected file"}'` }),
    ]);
    expect(await callLikeTheLoop(hooks, writeTool, write)).toEqual({ blocked: "protected file" });
  });

  it("blocks on Claude Code's hookSpecificOutput deny", async () => {
    const json = '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"nope"}}';
    const hooks = hooksFor([hookConfig("pre_tool_use", { command: `printf '%s' '${json}'` })]);
    expect(await callLikeTheLoop(hooks, writeTool, write)).toEqual({ blocked: "nope" });
  });

  it("falls back to stdout, then to a default reason", async () => {
    const withStdout = hooksFor([
      hookConfig("pre_tool_use", { command: "echo from stdout; exit 1", block: true }),
    ]);
    expect(await callLikeTheLoop(withStdout, writeTool, write)).toEqual({ blocked: "from stdout" });
    const silent = hooksFor([hookConfig("pre_tool_use", { command: "exit 1", block: true })]);
    expect(await callLikeTheLoop(silent, writeTool, write)).toEqual({ blocked: "blocked by hook exit 1" });
  });

  it("blocks when a block = true hook times out", async () => {
    const hooks = hooksFor([hookConfig("pre_tool_use", { command: "sleep 30", block: true, timeout: 1 })]);
    expect(await callLikeTheLoop(hooks, writeTool, write)).toEqual({ blocked: "blocked by hook sleep 30" });
  });

  it("filters by tool_name list and glob, and by pattern on the tool's files", async () => {
    const hooks = hooksFor([
      hookConfig("pre_tool_use", { command: "echo by-name >&2; exit 2", tool_name: "Bash, WRITE" }),
    ]);
    expect(await callLikeTheLoop(hooks, writeTool, write)).toEqual({ blocked: "by-name" });
    const glob = hooksFor([
      hookConfig("pre_tool_use", { command: "echo glob >&2; exit 2", tool_name: "mcp__*" }),
    ]);
    expect((await callLikeTheLoop(glob, writeTool, write)).blocked).toBeUndefined();
    const byPattern = hooksFor([
      hookConfig("pre_tool_use", { command: "echo md >&2; exit 2", pattern: "*.md" }),
    ]);
    expect((await callLikeTheLoop(byPattern, writeTool, write)).blocked).toBeUndefined();
    expect(await callLikeTheLoop(byPattern, writeTool, { file_path: "docs/a.md", content: "x" })).toEqual({
      blocked: "md",
    });
  });

  it("reaches the model as the tool result through the loop", async () => {
    const context: AgentContext = {
      agent: { agentId: "lead", depth: 0 },
      model: undefined as never,
      system: [],
      tools: new ToolRegistry([writeTool]),
      thread: [],
      maxSteps: 10,
      gate: allowAllGate,
      hooks: hooksFor([hookConfig("pre_tool_use", { command: "echo 'ask first' >&2; exit 2" })]),
      createToolContext: () => tools.context,
    };
    const results = await executeToolCalls(
      context,
      [{ id: "c1", name: "write", arguments: JSON.stringify(write), input: write }],
      { signal: new AbortController().signal, emit: () => {} },
    );
    expect(results).toEqual([
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "write",
        output: "Tool `write` was blocked by a hook: ask first",
        isError: true,
      },
    ]);
  });
});

describe("interrupting the turn while a tool hook runs", () => {
  const write = { file_path: "a.txt", content: "hello" };

  /** The loop around one `write` call, with the turn aborted `abortAfterMs` after it starts. */
  async function writeThroughTheLoop(configs: HookConfig[], abortAfterMs: number) {
    const controller = new AbortController();
    const context: AgentContext = {
      agent: { agentId: "lead", depth: 0 },
      model: undefined as never,
      system: [],
      tools: new ToolRegistry([writeTool]),
      thread: [],
      maxSteps: 10,
      gate: allowAllGate,
      hooks: hooksFor(configs),
      createToolContext: () => tools.context,
    };
    const startedAt = Date.now();
    setTimeout(() => controller.abort(), abortAfterMs);
    const results = await executeToolCalls(
      context,
      [{ id: "c1", name: "write", arguments: JSON.stringify(write), input: write }],
      { signal: controller.signal, emit: () => {} },
    );
    return { results, elapsedMs: Date.now() - startedAt };
  }

  it("kills a slow pre_tool_use hook at once and does not run the tool", async () => {
    const { results, elapsedMs } = await writeThroughTheLoop(
      [hookConfig("pre_tool_use", { command: "sleep 20", timeout: 30 })],
      200,
    );
    // Well under the hook's 20 s (and its 30 s timeout): the abort killed it.
    expect(elapsedMs).toBeLessThan(3_000);
    expect(sandbox.reported.map((result) => [result.event, result.status])).toEqual([
      ["pre_tool_use", "killed"],
    ]);
    expect(results).toEqual([
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "write",
        output: "Cancelled before it ran.",
        isError: true,
      },
    ]);
    await expect(readFile(join(sandbox.dir, "a.txt"), "utf8")).rejects.toThrow();
  });

  it("reports a killed block = true hook as a cancellation, not a block", async () => {
    const { results } = await writeThroughTheLoop(
      [hookConfig("pre_tool_use", { command: "sleep 20", block: true, timeout: 30 })],
      200,
    );
    expect(results[0]?.output).toBe("Cancelled before it ran.");
    await expect(readFile(join(sandbox.dir, "a.txt"), "utf8")).rejects.toThrow();
  });

  it("kills a slow post_tool_use hook when the signal it was given aborts", async () => {
    const hooks = hooksFor([hookConfig("post_tool_use", { command: "sleep 20", timeout: 30 })]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const startedAt = Date.now();
    await hooks.afterToolCall?.({
      callId: "c1",
      name: "bash",
      input: {},
      output: "ok",
      isError: false,
      signal: controller.signal,
    });
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(sandbox.reported.map((result) => result.status)).toEqual(["killed"]);
  });
});

describe("after a tool call", () => {
  it("runs after_edit with {file} for a real edit, then post_tool_use", async () => {
    await writeFile(join(sandbox.dir, "b.ts"), "const x = 1;\n");
    const hooks = hooksFor([
      hookConfig("after_edit", { command: "printf '%s\\n' {file} >> formatted.txt", pattern: "*.ts" }),
      hookConfig("post_tool_use", { command: `cat > post.json` }),
      hookConfig("post_tool_use_failure", { command: "touch failure-ran" }),
    ]);
    const outcome = await callLikeTheLoop(hooks, editTool, {
      file_path: "b.ts",
      old_string: "1",
      new_string: "2",
    });
    expect(outcome.result?.isError).toBeUndefined();
    expect(await sandbox.readText("formatted.txt")).toBe(`${sandbox.dir}/b.ts\n`);
    expect(await sandbox.readJson("post.json")).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "edit",
      tool_input: { file_path: "b.ts", old_string: "1", new_string: "2" },
      success: true,
    });
    expect(sandbox.reported.map((result) => result.event)).toEqual(["after_edit", "post_tool_use"]);
  });

  it("runs post_tool_use_failure and no after_edit when the edit fails", async () => {
    const hooks = hooksFor([
      hookConfig("after_edit", { command: "touch after-edit-ran" }),
      hookConfig("post_tool_use_failure", { command: "cat > failure.json" }),
    ]);
    const outcome = await callLikeTheLoop(hooks, editTool, {
      file_path: "missing.ts",
      old_string: "a",
      new_string: "b",
    });
    expect(outcome.result?.isError).toBe(true);
    expect(await sandbox.readJson("failure.json")).toEqual({
      hook_event_name: "PostToolUseFailure",
      session_id: "s1",
      cwd: sandbox.dir,
      tool_name: "edit",
      tool_input: { file_path: "missing.ts", old_string: "a", new_string: "b" },
      tool_output: outcome.result?.output,
      success: false,
    });
    expect(sandbox.reported.map((result) => result.event)).toEqual(["post_tool_use_failure"]);
  });

  it("runs the after_edit hook once per changed file of an apply_patch that matches the pattern", async () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: one.ts",
      "+export const one = 1;",
      "*** Add File: two.md",
      "+# two",
      "*** Add File: three.ts",
      "+export const three = 3;",
      "*** End Patch",
    ].join("\n");
    const hooks = hooksFor([
      hookConfig("after_edit", { command: "echo {file} >> formatted.txt", pattern: "*.ts" }),
    ]);
    const outcome = await callLikeTheLoop(hooks, applyPatchTool, { patch });
    expect(outcome.result?.isError).toBeUndefined();
    expect(await sandbox.readText("formatted.txt")).toBe(`${sandbox.dir}/one.ts\n${sandbox.dir}/three.ts\n`);
  });

  it("caps the tool output sent to hooks", async () => {
    const hooks = hooksFor([hookConfig("post_tool_use", { command: "cat > post.json" })]);
    await hooks.afterToolCall?.({
      callId: "c",
      name: "bash",
      input: {},
      output: "y".repeat(100_000),
      isError: false,
    });
    const stdin = (await sandbox.readJson("post.json")) as { tool_output: string };
    expect(stdin.tool_output.length).toBeLessThan(21_000);
    expect(stdin.tool_output).toContain("output truncated");
  });
});

describe("filesNamedBy", () => {
  it("collects every path a file tool names, absolute and deduplicated", () => {
    const cwd = "/w";
    expect(filesNamedBy("write", { file_path: "a.ts" }, cwd)).toEqual(["/w/a.ts"]);
    expect(filesNamedBy("move_file", { source: "a", destination: "/x/b" }, cwd)).toEqual(["/w/a", "/x/b"]);
    expect(
      filesNamedBy(
        "multi_edit",
        { edits: [{ file_path: "a" }, { file_path: "b" }, { file_path: "a" }] },
        cwd,
      ),
    ).toEqual(["/w/a", "/w/b"]);
    expect(filesNamedBy("delete_file", { path: "d" }, cwd)).toEqual(["/w/d"]);
    expect(filesNamedBy("bash", { command: "ls" }, cwd)).toEqual([]);
    expect(filesNamedBy("apply_patch", { patch: "garbage" }, cwd)).toEqual([]);
  });
});
