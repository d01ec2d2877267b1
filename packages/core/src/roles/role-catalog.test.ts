import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { configSchema } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_IN_ROLES } from "./built-in/built-in-roles.js";
import { explorerRole } from "./built-in/explorer-role.js";
import { describeRolesForSpawn, formatRoleList, roleLines } from "./format-role-list.js";
import { loadConfigRoles } from "./load-config-roles.js";
import { loadFileRoles } from "./load-file-roles.js";
import { resolveRole } from "./resolve-role.js";
import { RoleCatalog } from "./role-catalog.js";
import { RoleDisabledError } from "./role-errors.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nyzhi-roles-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

function configWithRoles(roles: Record<string, unknown>) {
  return configSchema.parse({ agent: { agents: { roles } } });
}

describe("loadFileRoles", () => {
  it("lets .nyzhi beat .claude for the same name and records what it shadows", async () => {
    await writeFiles({
      ".claude/agents/api.md": "---\ndescription: from claude\n---\nclaude prompt",
      ".nyzhi/agents/api.md": "---\ndescription: from nyzhi\n---\nnyzhi prompt",
      ".claude/agents/only-claude.md": "---\ntools: Read, Grep, Glob\n---\n",
    });
    const { roles, warnings } = await loadFileRoles(root);
    expect(warnings).toEqual([]);
    const api = roles.find((role) => role.name === "api");
    expect(api?.description).toBe("from nyzhi");
    expect(api?.systemPrompt).toBe("nyzhi prompt");
    expect(api?.source).toEqual({ kind: "file", path: ".nyzhi/agents/api.md", scope: "project" });
    expect(api?.overrides).toEqual([{ kind: "file", path: ".claude/agents/api.md", scope: "project" }]);
    expect(roles.find((role) => role.name === "only-claude")?.allowedTools).toEqual(["read", "grep", "glob"]);
  });

  it("keys roles by the front matter name, not the file stem", async () => {
    await writeFiles({
      ".claude/agents/reviewer-file.md": "---\nname: api\ndescription: claude\n---\n",
      ".nyzhi/agents/api.md": "---\ndescription: nyzhi\n---\n",
    });
    const { roles } = await loadFileRoles(root);
    expect(roles.map((role) => [role.name, role.description])).toEqual([["api", "nyzhi"]]);
  });

  it("skips a broken file with a warning naming it and keeps the others", async () => {
    await writeFiles({
      ".nyzhi/agents/broken.md": "---\nname: [oops\n---\n",
      ".nyzhi/agents/good.md": "---\ndescription: fine\n---\n",
      ".nyzhi/agents/notes.txt": "ignored",
    });
    const { roles, warnings } = await loadFileRoles(root);
    expect(roles.map((role) => role.name)).toEqual(["good"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.path).toBe(".nyzhi/agents/broken.md");
    expect(warnings[0]!.message).toContain("Skipped agent file .nyzhi/agents/broken.md");
  });

  it("reports a second file with the same name in one folder", async () => {
    await writeFiles({
      ".nyzhi/agents/a.md": "---\nname: same\n---\n",
      ".nyzhi/agents/b.md": "---\nname: same\n---\n",
    });
    const { roles, warnings } = await loadFileRoles(root);
    expect(roles.map((role) => role.source)).toEqual([
      { kind: "file", path: ".nyzhi/agents/a.md", scope: "project" },
    ]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      "Skipped agent file .nyzhi/agents/b.md: role 'same' is already defined by .nyzhi/agents/a.md",
    ]);
  });

  it("returns nothing when the folders do not exist", async () => {
    expect(await loadFileRoles(root)).toEqual({ roles: [], warnings: [] });
  });
});

describe("loadConfigRoles", () => {
  it("maps config keys and takes the scope from the origins", () => {
    const config = configWithRoles({
      "api-specialist": {
        description: "Backend API expert",
        system_prompt: "You are an API specialist.",
        model: "anthropic/claude-sonnet-4-20250514",
        max_steps: 60,
        allowed_tools: ["read", "Bash", "nope"],
        mcp_servers: ["github"],
      },
    });
    const origins = {
      "agent.agents.roles.api-specialist.description": {
        layer: "project" as const,
        source: "/p/.nyzhi/config.toml",
        value: "Backend API expert",
      },
    };
    const { roles, warnings } = loadConfigRoles(config, { origins });
    expect(roles).toEqual([
      {
        name: "api-specialist",
        description: "Backend API expert",
        systemPrompt: "You are an API specialist.",
        model: "anthropic/claude-sonnet-4-20250514",
        maxSteps: 60,
        readOnly: false,
        enabled: true,
        allowedTools: ["read", "bash", "nope"],
        mcpServers: ["github"],
        source: { kind: "config", scope: "project", path: "/p/.nyzhi/config.toml" },
      },
    ]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      "Config role [agent.agents.roles.api-specialist]: allowed_tools: unknown tool 'nope' (kept as given)",
    ]);
  });
});

describe("RoleCatalog and resolveRole", () => {
  it("resolves files over config over built-in, and lists what each shadows", async () => {
    await writeFiles({ ".nyzhi/agents/worker.md": "---\ndescription: file worker\n---\nfile prompt" });
    const config = configWithRoles({
      worker: { description: "config worker" },
      explorer: { description: "config explorer", model: "haiku" },
      extra: { description: "config only" },
    });
    const catalog = await RoleCatalog.load({ config, projectRoot: root });
    expect(catalog.warnings).toEqual([]);

    const worker = resolveRole("worker", catalog);
    expect(worker.unknown).toBe(false);
    expect(worker.role.description).toBe("file worker");
    expect(worker.role.overrides).toEqual([{ kind: "config" }, { kind: "built-in" }]);

    // A config entry named like a built-in patches it: unset keys keep the built-in's values.
    const explorer = resolveRole("explorer", catalog).role;
    expect(explorer).toEqual({
      ...explorerRole,
      description: "config explorer",
      model: "haiku",
      source: { kind: "config" },
      overrides: [{ kind: "built-in" }],
    });

    expect(resolveRole("extra", catalog).role.source).toEqual({ kind: "config" });
    expect(resolveRole("planner", catalog).role.source).toEqual({ kind: "built-in" });
    expect(catalog.list().map((role) => role.name)).toContain("extra");
    expect(catalog.list()).toHaveLength(BUILT_IN_ROLES.length + 1);
  });

  it("defaults to the default role and falls back for unknown names", () => {
    const catalog = new RoleCatalog();
    expect(resolveRole(undefined, catalog)).toMatchObject({ unknown: false, role: { name: "default" } });
    expect(resolveRole("  ", catalog)).toMatchObject({ unknown: false, role: { name: "default" } });
    expect(resolveRole("explorer", catalog).role).toBe(explorerRole);
    expect(resolveRole("wizard", catalog)).toEqual({
      unknown: true,
      role: expect.objectContaining({
        name: "wizard",
        readOnly: false,
        enabled: true,
        source: { kind: "fallback" },
      }),
    });
  });

  it("keeps one enabled() list until the catalog changes, and role lines follow every change", () => {
    const catalog = new RoleCatalog();
    const first = catalog.enabled();
    expect(catalog.enabled()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    catalog.replace({ config: loadConfigRoles(configWithRoles({ extra: { description: "Extra" } })).roles });
    expect(catalog.enabled()).not.toBe(first);
    expect(roleLines(catalog.enabled())).toContain("- `extra`: Extra");
    expect(roleLines(first)).not.toContain("extra");
    // An array that can change (createSpawnAgentTool takes a function returning one) is read each time.
    const mutable = [{ name: "a", description: "A" }];
    expect(roleLines(mutable)).toBe("- `a`: A");
    mutable.push({ name: "b", description: "B" });
    expect(roleLines(mutable)).toBe("- `a`: A\n- `b`: B");
  });

  it("lists disabled roles and refuses to resolve them with a typed error", () => {
    const catalog = new RoleCatalog({
      config: loadConfigRoles(configWithRoles({ explorer: { enabled: false } })).roles,
    });
    expect(catalog.get("explorer")?.enabled).toBe(false);
    expect(catalog.enabled().map((role) => role.name)).not.toContain("explorer");
    let thrown: unknown;
    try {
      resolveRole("explorer", catalog);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RoleDisabledError);
    expect(thrown).toMatchObject({ code: "role_disabled", role: "explorer", source: { kind: "config" } });
    expect((thrown as Error).message).toBe(
      "Role 'explorer' is disabled (enabled = false in config). Enable it there or use another role.",
    );
  });

  it("picks up new agent files on reload", async () => {
    const catalog = await RoleCatalog.load({ projectRoot: root });
    expect(resolveRole("late", catalog).unknown).toBe(true);
    await writeFiles({ ".claude/agents/late.md": "---\ndescription: added later\n---\n" });
    expect(await catalog.reload()).toEqual([]);
    expect(resolveRole("late", catalog)).toMatchObject({
      unknown: false,
      role: { description: "added later" },
    });
  });

  it("carries load warnings", async () => {
    await writeFiles({ ".nyzhi/agents/bad.md": "---\nmax_steps: -1\n---\n" });
    const catalog = await RoleCatalog.load({ projectRoot: root });
    expect(catalog.warnings.map((warning) => warning.path)).toEqual([".nyzhi/agents/bad.md"]);
  });
});

describe("config patches of built-ins", () => {
  it("keeps unset keys and applies explicit ones", () => {
    const { roles } = loadConfigRoles(
      configWithRoles({ explorer: { read_only: false, allowed_tools: ["read", "write"], max_steps: 0 } }),
    );
    expect(roles[0]).toMatchObject({
      name: "explorer",
      readOnly: false,
      allowedTools: ["read", "write"],
      maxSteps: 30,
      systemPrompt: explorerRole.systemPrompt,
      description: explorerRole.description,
    });
  });
});

describe("formatRoleList and describeRolesForSpawn", () => {
  it("shows flags, sources, what is shadowed, and offers only enabled roles", async () => {
    await writeFiles({
      ".nyzhi/agents/explorer.md": "---\ndescription: Local scout\nread_only: true\n---\n",
    });
    const config = configWithRoles({
      explorer: { model: "haiku" },
      off: { description: "Off", enabled: false },
    });
    const catalog = await RoleCatalog.load({ config, projectRoot: root });
    const listing = formatRoleList(catalog.list()).split("\n");
    expect(listing).toContain(
      "explorer [read-only] — .nyzhi/agents/explorer.md, overrides config, built-in — Local scout",
    );
    expect(listing).toContain("off [disabled] — config — Off");
    const offered = describeRolesForSpawn(catalog.list());
    expect(offered).toContain("- `explorer`: Local scout");
    expect(offered).not.toContain("`off`");
  });
});
