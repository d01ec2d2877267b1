import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../engines/sandbox/path-guard.js";
import { applyPatchTool } from "../tools/files/apply-patch/apply-patch-tool.js";
import { multiEditTool } from "../tools/files/multi-edit-tool.js";
import { readTool } from "../tools/files/read/read-tool.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { grepTool } from "../tools/search/grep-tool.js";
import { bashTool } from "../tools/shell/bash.js";
import { createTestContext, type TestContext } from "../tools/testing/create-test-context.js";
import { createApprovalBroker } from "./approval-broker.js";
import { createToolGate } from "./create-tool-gate.js";
import { createPermissionPolicy } from "./permission-policy.js";

/**
 * The gate with the real tools: every path a tool declares through `paths(input)` reaches the deny
 * rules and the sandbox, read-only tools included.
 */
let test: TestContext;
let outside: string;

beforeAll(async () => {
  test = await createTestContext();
  outside = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-gate-outside-")));
  await writeFile(join(test.cwd, ".env"), "TOKEN=secret\n");
  await mkdir(join(test.cwd, "src"));
  await writeFile(join(test.cwd, "src", "a.ts"), "export const a = 1;\n");
  await symlink(outside, join(test.cwd, "escape"));
});
afterAll(async () => {
  await test.cleanup();
  await rm(outside, { recursive: true, force: true });
});

function gateFor(mode: "off" | "full") {
  const trust = { mode, deny_paths: [".env"] };
  const policy = createPermissionPolicy({ trust, roots: [test.cwd], cwd: test.cwd });
  const broker = createApprovalBroker({});
  const guard = createPathGuard({
    level: "workspace-write",
    roots: [test.cwd],
    cwd: test.cwd,
    denyPaths: trust.deny_paths,
  });
  return createToolGate({ policy, broker, guard });
}

async function decide(mode: "off" | "full", tool: Tool, rawInput: unknown) {
  const parsed = tool.parse(rawInput);
  if (!parsed.ok) throw new Error(parsed.error);
  const paths = tool.pathsOf(parsed.input, test.context);
  return gateFor(mode).decide({
    callId: "c",
    tool,
    input: parsed.input,
    paths,
    preview: tool.previewOf(parsed.input),
    agent: { agentId: "lead", depth: 0 },
  });
}

describe("deny rules and the sandbox reach every declared path", () => {
  it.each(["off", "full"] as const)("mode %s: read and grep of a denied .env are denied", async (mode) => {
    expect((await decide(mode, readTool, { file_path: ".env" })).action).toBe("deny");
    expect((await decide(mode, grepTool, { pattern: "TOKEN", path: ".env" })).action).toBe("deny");
    expect((await decide(mode, bashTool, { command: "cat .env" })).action).toBe("deny");
    expect((await decide(mode, readTool, { file_path: "src/a.ts" })).action).toBe("allow");
  });

  it("multi_edit and apply_patch targets are all checked (a later target outside the workspace is refused)", async () => {
    const multi = await decide("full", multiEditTool, {
      edits: [
        { file_path: "src/a.ts", old_string: "1", new_string: "2" },
        { file_path: "escape/b.ts", old_string: "x", new_string: "y" },
      ],
    });
    expect(multi).toEqual({
      action: "deny",
      reason: `blocked by the sandbox: Writing ${join(outside, "b.ts")} is not allowed: it is outside the workspace ${test.cwd} (escape/b.ts resolves there through a symbolic link or "..").`,
    });
    const patch = [
      "*** Begin Patch",
      "*** Add File: src/ok.ts",
      "+ok",
      "*** Add File: .env",
      "+x",
      "*** End Patch",
    ].join("\n");
    expect(await decide("full", applyPatchTool, { patch })).toEqual({
      action: "deny",
      reason: `blocked by the sandbox: Access to ${join(test.cwd, ".env")} is denied by the deny_paths rule ".env".`,
    });
  });
});
