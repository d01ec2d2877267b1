import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalPrompt } from "../permissions/approval-broker.js";
import { type SubagentHarness, startSubagentHarness } from "../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const lead = { agentId: "lead", depth: 0 };

async function writeRole(workspace: string, folder: ".nyzhi" | ".claude", name: string, text: string) {
  await mkdir(join(workspace, folder, "agents"), { recursive: true });
  await writeFile(join(workspace, folder, "agents", `${name}.md`), text);
}

describe("file roles through spawn", () => {
  it("offers a Claude Code agent exactly its tools, lets .nyzhi win, keeps read-only roles read-only, skips broken files", async () => {
    harness = await startSubagentHarness(
      { rules: [{ response: { text: "ok" } }] },
      {
        beforeRoles: async (workspace) => {
          await writeRole(
            workspace,
            ".claude",
            "finder",
            "---\nname: finder\ndescription: Finds code\ntools: Read, Grep, Glob\n---\nYou are the Claude finder.\n",
          );
          await writeRole(
            workspace,
            ".claude",
            "twin",
            "---\nname: twin\ndescription: from claude\n---\nI am the claude twin.\n",
          );
          await writeRole(
            workspace,
            ".nyzhi",
            "twin",
            "---\nname: twin\ndescription: from nyzhi\n---\nI am the nyzhi twin.\n",
          );
          await writeRole(
            workspace,
            ".nyzhi",
            "auditor",
            "---\nname: auditor\ndescription: audits\nread_only: true\nallowed_tools: [read, write, edit, bash]\n---\nAudit.\n",
          );
          await writeRole(workspace, ".nyzhi", "broken", "---\nname: [unclosed\n---\nbody\n");
        },
      },
    );
    const manager = harness.runtime.manager!;
    for (const roleName of ["finder", "twin", "auditor"]) {
      const spawned = await manager.spawn({ parent: lead, message: `as ${roleName}`, roleName });
      await manager.wait({ callerId: "lead", ids: [spawned.agentId], timeoutMs: 10_000 });
    }
    const request = (text: string) =>
      harness!.mock.requests.find((entry) => entry.messages[0]?.text === text)!;
    expect([...request("as finder").toolsOffered].sort()).toEqual(["glob", "grep", "read"]);
    expect(request("as finder").system).toContain("You are the Claude finder.");
    expect(request("as twin").system).toContain("I am the nyzhi twin.");
    expect(request("as twin").system).not.toContain("claude twin");
    expect(request("as auditor").toolsOffered).toEqual(["read"]);
    const { RoleCatalog } = await import("../roles/role-catalog.js");
    const catalog = await RoleCatalog.load({ projectRoot: harness.workspace });
    expect(catalog.get("broken")).toBeUndefined();
    expect(catalog.warnings.map((warning) => warning.message).join("\n")).toMatch(/broken\.md/);
  });
});

describe("approvals and deny rules inside subagents", () => {
  it("sends a child's approval to the host tagged with its nickname, and keeps denied paths denied", async () => {
    const prompts: ApprovalPrompt[] = [];
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { lastUser: "write the file", lastIsToolResult: false },
            response: { toolCalls: [{ name: "write", arguments: { file_path: "out.txt", content: "hi" } }] },
          },
          {
            match: { lastUser: "read the secrets", lastIsToolResult: false },
            response: { toolCalls: [{ name: "read", arguments: { file_path: ".env" } }] },
          },
          { response: { text: "done" } },
        ],
      },
      {
        configure: (config) => {
          config.agent.trust.mode = "off";
          config.agent.trust.deny_paths = [".env"];
        },
        approve: async (prompt) => {
          prompts.push(prompt);
          return "deny";
        },
      },
    );
    await writeFile(join(harness.workspace, ".env"), "TOKEN=secret\n");
    const manager = harness.runtime.manager!;
    const writer = await manager.spawn({ parent: lead, message: "write the file", roleName: "worker" });
    await manager.wait({ callerId: "lead", ids: [writer.agentId], timeoutMs: 10_000 });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({
      tool: "write",
      agent: { nickname: writer.nickname, depth: 1, role: "worker" },
    });

    const reader = await manager.spawn({ parent: lead, message: "read the secrets", roleName: "explorer" });
    await manager.wait({ callerId: "lead", ids: [reader.agentId], timeoutMs: 10_000 });
    const readResult = harness.mock.requests
      .filter((request) => request.messages[0]?.text === "read the secrets")
      .at(-1)!
      .messages.at(-1)!.toolResults![0]!;
    expect(readResult.content).toMatch(/denied/);
    expect(readResult.content).not.toContain("secret\n");
  });
});
