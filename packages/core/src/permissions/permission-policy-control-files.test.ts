import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPermissionPolicy } from "./permission-policy.js";
import type { PermissionRequest } from "./permission-types.js";
import type { TrustSettings } from "./trust-mode.js";

describe("the permission policy and control files", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-control-")));
    await mkdir(join(workspace, ".nyzhi"));
    await writeFile(join(workspace, ".nyzhi", "config.toml"), "");
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  const decide = (trust: Partial<TrustSettings>, request: Partial<PermissionRequest>) =>
    createPermissionPolicy({
      trust,
      roots: [workspace],
      cwd: workspace,
      controlFiles: [join(workspace, "hook.sh")],
    }).decide({
      tool: "write",
      kind: "edit",
      mutates: true,
      input: {},
      paths: [{ path: ".nyzhi/config.toml", access: "write" }],
      ...request,
    });

  it("asks before a write to a control file in every mode below full, whatever allows it otherwise", async () => {
    for (const trust of [
      { mode: "autoedit" as const },
      { mode: "autoedit" as const, allow_tools: ["write"] },
      { mode: "limited" as const, allow_tools: ["write"] },
      { mode: "off" as const, auto_approve: ["write"] },
    ]) {
      expect(await decide(trust, {}), JSON.stringify(trust)).toEqual({
        action: "ask",
        reason: `${join(workspace, ".nyzhi", "config.toml")} is one of the agent's control files (.nyzhi/**): writing it always asks unless trust mode is full`,
        rememberable: false,
        controlFile: join(workspace, ".nyzhi", "config.toml"),
      });
    }
    const hook = await decide({ mode: "autoedit" }, { paths: [{ path: "hook.sh", access: "write" }] });
    expect(hook).toMatchObject({ action: "ask", controlFile: join(workspace, "hook.sh") });
    const moved = await decide(
      { mode: "autoedit" },
      {
        tool: "move_file",
        paths: [
          { path: "notes.toml", access: "write" },
          { path: ".mcp.json", access: "write" },
        ],
      },
    );
    expect(moved).toMatchObject({ action: "ask", controlFile: join(workspace, ".mcp.json") });
  });

  it("lets trust mode full write them, reads go through, and other workspace edits stay automatic", async () => {
    expect(await decide({ mode: "full" }, {})).toEqual({ action: "allow", reason: "trust mode full" });
    expect(
      await decide(
        { mode: "off" },
        {
          tool: "read",
          kind: "read",
          mutates: false,
          paths: [{ path: ".nyzhi/config.toml", access: "read" }],
        },
      ),
    ).toEqual({ action: "allow", reason: "read-only tool" });
    expect(await decide({ mode: "autoedit" }, { paths: [{ path: "src/a.ts", access: "write" }] })).toEqual({
      action: "allow",
      reason: "edit in trust mode autoedit",
    });
    expect(
      await decide({ mode: "autoedit" }, { paths: [{ path: ".nyzhi/notepads/plan.md", access: "write" }] }),
    ).toMatchObject({ action: "allow" });
  });

  it("still lets deny rules win over the ask", async () => {
    expect(await decide({ mode: "autoedit", deny_paths: [".nyzhi"] }, {})).toMatchObject({ action: "deny" });
  });
});
