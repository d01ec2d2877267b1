import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BwrapStatus, detectBwrap } from "../../engines/sandbox/detect-bwrap.js";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import type { SandboxSettings } from "../../engines/sandbox/sandbox-settings.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { createBashTool } from "./bash.js";

const status: BwrapStatus = await detectBwrap();
if (!status.available)
  console.warn(`Skipping bubblewrap tests: bubblewrap ${status.reason}: ${status.detail}`);

let test: TestContext | undefined;
afterEach(async () => {
  await test?.cleanup();
  test = undefined;
});

async function workspace(options: { controlFiles?: string[] } = {}): Promise<TestContext> {
  test = await createTestContext();
  const settings: SandboxSettings = {
    level: "workspace-write",
    roots: [test.cwd],
    allowNetwork: false,
    controlFiles: (options.controlFiles ?? []).map((file) => join(test!.cwd, file)),
  };
  test.context.services = { sandbox: settings };
  test.context.paths = createPathGuard({ level: "workspace-write", roots: [test.cwd], cwd: test.cwd });
  return test;
}

const run = async (command: string, on: TestContext) =>
  (await createBashTool().run({ command }, on.context)).output;

describe.skipIf(!status.available)("bash under workspace-write keeps the control files read-only", () => {
  it("refuses writes, deletes and renames of existing control files while the rest of the workspace is writable", async () => {
    const on = await workspace({ controlFiles: ["scripts/hook.sh"] });
    const files: Record<string, string> = {
      ".nyzhi/config.toml": '[agent.trust]\nmode = "off"\n',
      ".claude/settings.json": "{}\n",
      ".mcp.json": "{}\n",
      "scripts/hook.sh": "echo hook\n",
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(on.cwd, path, ".."), { recursive: true });
      await writeFile(join(on.cwd, path), content);
    }
    const output = await run(
      [
        "echo x > .nyzhi/config.toml || echo nyzhi-refused",
        "echo x > .nyzhi/hooks.sh || echo nyzhi-new-refused",
        "rm -rf .nyzhi 2>/dev/null; test -f .nyzhi/config.toml && echo nyzhi-kept",
        "echo x > .claude/settings.local.json || echo claude-refused",
        "mv .claude moved 2>/dev/null || echo claude-move-refused",
        "echo x > .mcp.json || echo mcp-refused",
        "echo x >> scripts/hook.sh || echo hook-refused",
        "echo ok > other.txt && echo other-ok",
        "echo ok > scripts/build.sh && echo sibling-ok",
      ].join("; "),
      on,
    );
    for (const line of [
      "nyzhi-refused",
      "nyzhi-new-refused",
      "nyzhi-kept",
      "claude-refused",
      "claude-move-refused",
      "mcp-refused",
      "hook-refused",
      "other-ok",
      "sibling-ok",
    ]) {
      expect(output).toContain(line);
    }
    for (const [path, content] of Object.entries(files)) {
      expect(await readFile(join(on.cwd, path), "utf8")).toBe(content);
    }
    expect(existsSync(join(on.cwd, ".claude", "settings.local.json"))).toBe(false);
    expect(await readFile(join(on.cwd, "other.txt"), "utf8")).toBe("ok\n");
  });

  it("binds a symlinked control file at its target inside the workspace", async () => {
    const on = await workspace();
    await mkdir(join(on.cwd, "config"));
    await writeFile(join(on.cwd, "config", "mcp.json"), "{}\n");
    await symlink("config/mcp.json", join(on.cwd, ".mcp.json"));
    await symlink("/nonexistent-nyzhi-target", join(on.cwd, ".claude"));
    const output = await run(
      "echo x > .mcp.json || echo mcp-refused; echo ok > file.txt && echo file-ok",
      on,
    );
    expect(output).toContain("mcp-refused");
    expect(output).toContain("file-ok");
    expect(await readFile(join(on.cwd, "config", "mcp.json"), "utf8")).toBe("{}\n");
  });

  it("keeps a missing .nyzhi or .claude from being created, and leaves no placeholder behind", async () => {
    const on = await workspace();
    const output = await run(
      [
        "mkdir -p .nyzhi 2>/dev/null; echo x > .nyzhi/config.toml || echo nyzhi-refused",
        "mkdir .claude/agents || echo claude-refused",
        "echo ok > file.txt && echo file-ok",
      ].join("; "),
      on,
    );
    expect(output).toContain("nyzhi-refused");
    expect(output).toContain("claude-refused");
    expect(output).toContain("file-ok");
    expect(readdirSync(on.cwd).sort()).toEqual(["file.txt"]);
  });

  it("holds a placeholder until the last of several concurrent commands ends", async () => {
    const on = await workspace();
    const slow = run("sleep 1; echo x > .nyzhi/config.toml || echo slow-refused", on);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quick = await run("true", on);
    expect(quick).not.toContain("refused");
    expect(await slow).toContain("slow-refused");
    expect(existsSync(join(on.cwd, ".nyzhi"))).toBe(false);
  });
});
