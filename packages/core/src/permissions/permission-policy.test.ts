import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PathUse, ToolKind } from "../tools/seam/tool-types.js";
import { createPermissionPolicy } from "./permission-policy.js";
import type { PermissionRequest } from "./permission-types.js";
import type { TrustMode, TrustSettings } from "./trust-mode.js";
import { parseTrustMode } from "./trust-mode.js";

let workspace: string;
let outside: string;

beforeAll(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-policy-")));
  workspace = join(base, "ws");
  outside = join(base, "outside");
  await mkdir(join(workspace, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(workspace, ".env"), "TOKEN=1");
  await symlink(join(workspace, ".env"), join(workspace, "harmless.txt"));
});
afterAll(async () => {
  await rm(join(workspace, ".."), { recursive: true, force: true });
});

const policy = (trust: Partial<TrustSettings>) =>
  createPermissionPolicy({ trust, roots: [workspace], cwd: workspace });

/** A representative tool of each kind, as the registry would describe it. */
const TOOLS: Record<string, { tool: string; kind: ToolKind; mutates: boolean; paths: PathUse[] }> = {
  read: { tool: "read", kind: "read", mutates: false, paths: [{ path: "src/a.ts", access: "read" }] },
  edit: { tool: "edit", kind: "edit", mutates: true, paths: [{ path: "src/a.ts", access: "write" }] },
  execute: { tool: "bash", kind: "execute", mutates: true, paths: [] },
  network: { tool: "web_fetch", kind: "network", mutates: false, paths: [] },
  agent: { tool: "spawn_agent", kind: "agent", mutates: true, paths: [] },
  "agent (read-only)": { tool: "list_agents", kind: "agent", mutates: false, paths: [] },
};

const request = (
  name: keyof typeof TOOLS,
  overrides: Partial<PermissionRequest> = {},
): PermissionRequest => ({
  ...TOOLS[name]!,
  input: {},
  ...overrides,
});

describe("trust modes × tool kinds (empty lists)", () => {
  const expected: Record<TrustMode, Record<keyof typeof TOOLS, "allow" | "ask">> = {
    off: {
      read: "allow",
      edit: "ask",
      execute: "ask",
      network: "ask",
      agent: "ask",
      "agent (read-only)": "allow",
    },
    limited: {
      read: "allow",
      edit: "ask",
      execute: "ask",
      network: "ask",
      agent: "ask",
      "agent (read-only)": "allow",
    },
    autoedit: {
      read: "allow",
      edit: "allow",
      execute: "ask",
      network: "ask",
      agent: "ask",
      "agent (read-only)": "allow",
    },
    full: {
      read: "allow",
      edit: "allow",
      execute: "allow",
      network: "allow",
      agent: "allow",
      "agent (read-only)": "allow",
    },
  };
  const cases = Object.entries(expected).flatMap(([mode, byKind]) =>
    Object.entries(byKind).map(([kind, action]) => [mode as TrustMode, kind, action] as const),
  );
  it.each(cases)("%s × %s → %s", async (mode, kind, action) => {
    expect((await policy({ mode }).decide(request(kind))).action).toBe(action);
  });
});

describe("deny rules apply to every tool, in every mode", () => {
  it.each(["off", "limited", "autoedit", "full"] as const)(
    "mode %s: deny_tools and deny_paths",
    async (mode) => {
      const strict = policy({
        mode,
        deny_tools: ["git_*", "mcp__github__*"],
        deny_paths: [".env", "secrets/**"],
      });
      expect(
        await strict.decide({ tool: "git_status", kind: "read", mutates: false, input: {}, paths: [] }),
      ).toEqual({
        action: "deny",
        reason: '`git_status` is blocked by the deny_tools rule "git_*"',
      });
      expect((await strict.decide({ ...request("agent"), tool: "MCP__GitHub__create_issue" })).action).toBe(
        "deny",
      );
      expect(await strict.decide(request("read", { paths: [{ path: ".env", access: "read" }] }))).toEqual({
        action: "deny",
        reason: `${join(workspace, ".env")} is blocked by the deny_paths rule ".env"`,
      });
      const grep = {
        tool: "grep",
        kind: "read" as const,
        mutates: false,
        input: { pattern: "TOKEN", path: ".env" },
      };
      expect((await strict.decide({ ...grep, paths: [{ path: ".env", access: "read" }] })).action).toBe(
        "deny",
      );
      expect(
        (await strict.decide(request("read", { paths: [{ path: "harmless.txt", access: "read" }] }))).action,
      ).toBe("deny");
      expect(
        (await strict.decide(request("edit", { paths: [{ path: "secrets/a/b.key", access: "write" }] })))
          .action,
      ).toBe("deny");
      expect(
        (await strict.decide(request("read", { paths: [{ path: ".env.example", access: "read" }] }))).action,
      ).toBe("allow");
    },
  );

  it("deny beats auto_approve and always_ask", async () => {
    const decision = await policy({
      mode: "full",
      auto_approve: ["bash"],
      always_ask: ["bash"],
      deny_tools: ["BASH"],
    }).decide(request("execute"));
    expect(decision.action).toBe("deny");
  });
});

describe("always_ask, auto_approve, allow_tools, allow_paths", () => {
  it("always_ask beats full and is not rememberable", async () => {
    expect(
      await policy({ mode: "full", always_ask: ["git_commit", "bash"] }).decide(request("execute")),
    ).toEqual({
      action: "ask",
      reason: 'always_ask rule "bash"',
      rememberable: false,
    });
  });

  it("always_ask beats auto_approve", async () => {
    expect(
      (await policy({ auto_approve: ["bash"], always_ask: ["bash"] }).decide(request("execute"))).action,
    ).toBe("ask");
  });

  it("auto_approve beats off", async () => {
    const decision = await policy({ mode: "off", auto_approve: ["bash", "git_*"] }).decide(
      request("execute"),
    );
    expect(decision).toEqual({ action: "allow", reason: 'auto_approve rule "bash"' });
  });

  it("limited approves only allow_tools, within allow_paths and the workspace", async () => {
    const limited = policy({ mode: "limited", allow_tools: ["edit", "bash"], allow_paths: ["src"] });
    expect((await limited.decide(request("edit"))).action).toBe("allow");
    expect((await limited.decide(request("execute"))).action).toBe("allow");
    expect(
      (await limited.decide(request("edit", { paths: [{ path: "README.md", access: "write" }] }))).action,
    ).toBe("ask");
    expect((await limited.decide({ ...request("edit"), tool: "write" })).action).toBe("ask");
    const noPaths = policy({ mode: "limited", allow_tools: ["edit"] });
    expect(
      (await noPaths.decide(request("edit", { paths: [{ path: `${outside}/x`, access: "write" }] }))).action,
    ).toBe("ask");
  });

  it("autoedit approves edits inside allow_paths only, and never outside the workspace", async () => {
    const autoedit = policy({ mode: "autoedit", allow_paths: ["src/**"] });
    expect((await autoedit.decide(request("edit"))).action).toBe("allow");
    expect(
      (await autoedit.decide(request("edit", { paths: [{ path: "package.json", access: "write" }] }))).action,
    ).toBe("ask");
    const anywhere = policy({ mode: "autoedit" });
    expect(
      (await anywhere.decide(request("edit", { paths: [{ path: "../outside/x", access: "write" }] }))).action,
    ).toBe("ask");
  });

  it("autoedit with allow_tools approves only the listed tools", async () => {
    const autoedit = policy({ mode: "autoedit", allow_tools: ["write"] });
    expect((await autoedit.decide(request("edit"))).action).toBe("ask");
    expect((await autoedit.decide({ ...request("edit"), tool: "write" })).action).toBe("allow");
  });
});

describe("parseTrustMode", () => {
  it("accepts the modes and aliases", () => {
    expect(["off", "LIMITED", "auto_edit", "auto-edit", "full"].map(parseTrustMode)).toEqual([
      "off",
      "limited",
      "autoedit",
      "autoedit",
      "full",
    ]);
    expect(() => parseTrustMode("yes")).toThrow(
      'Unknown trust mode "yes". Use one of: off, limited, autoedit, full.',
    );
  });
});
