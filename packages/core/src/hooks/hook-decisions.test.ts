import { describe, expect, it } from "vitest";
import { blockReasonOf, parseHookJsonDecision } from "./hook-decisions.js";
import type { HookResult } from "./hook-types.js";
import { hookConfig } from "./testing/hook-sandbox.js";

describe("parseHookJsonDecision", () => {
  it("reads the plain and Claude Code forms", () => {
    expect(parseHookJsonDecision(' {"decision":"block","reason":" r "}\n')).toEqual({
      decision: "block",
      reason: "r",
    });
    expect(parseHookJsonDecision('{"decision":"approve"}')).toEqual({ decision: "allow" });
    expect(
      parseHookJsonDecision(
        '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}',
      ),
    ).toEqual({ decision: "deny", reason: "x" });
    expect(parseHookJsonDecision('{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}')).toEqual({
      decision: "allow",
    });
  });

  it("ignores text, broken JSON and unknown decisions", () => {
    expect(parseHookJsonDecision("block")).toBeUndefined();
    expect(parseHookJsonDecision('{"decision":')).toBeUndefined();
    expect(parseHookJsonDecision('{"decision":"maybe"}')).toBeUndefined();
    expect(parseHookJsonDecision("[1]")).toBeUndefined();
  });
});

describe("blockReasonOf", () => {
  const result = (fields: Partial<HookResult>): HookResult => ({
    event: "pre_tool_use",
    hook: hookConfig("pre_tool_use", { command: "check" }),
    command: "check",
    status: "ok",
    exitCode: 0,
    stdout: "",
    stderr: "",
    output: "",
    durationMs: 1,
    summary: "",
    ...fields,
  });

  it("does not block a successful hook without a decision", () => {
    expect(blockReasonOf(result({ stdout: "fine" }))).toBeUndefined();
  });

  it("caps a long reason", () => {
    const reason = blockReasonOf(result({ status: "failed", exitCode: 2, stderr: "x".repeat(10_000) }));
    expect(reason?.length).toBe(4_001);
  });
});
