import { lstat, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { configSchema } from "@nyzhi/config";
import { beforeEach, describe, expect, it } from "vitest";
import { resolveRole } from "../resolve-role.js";
import { RoleCatalog } from "../role-catalog.js";
import { agentDefinitionProblems } from "./agent-definition.js";
import { loadAgentsJson } from "./load-agents-json.js";
import { removeAgentEntry, writeAgentEntry } from "./write-agents-json.js";

let root: string;
let globalDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nyzhi-agents-json-"));
  globalDir = join(root, "home-config");
});

async function write(path: string, content: unknown) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
}
const projectFile = () => join(root, ".nyzhi/agents.json");
const globalFile = () => join(globalDir, "agents.json");

describe("loadAgentsJson", () => {
  it("merges the global and project files, the project winning by name, and maps tools and model", async () => {
    await write(globalFile(), {
      researcher: {
        description: "Research",
        prompt: "You research.",
        tools: ["WebFetch", "Read"],
        model: "sonnet",
      },
      coder: { description: "Global coder", prompt: "You code (global).", model: "inherit" },
    });
    await write(projectFile(), {
      coder: { description: "Project coder", prompt: "You code.", model: "opus" },
    });
    const { roles, warnings } = await loadAgentsJson({ global: globalFile(), project: projectFile() });
    expect(warnings).toEqual([]);
    expect(roles).toEqual([
      {
        name: "researcher",
        description: "Research",
        systemPrompt: "You research.",
        allowedTools: ["web_fetch", "read"],
        model: "sonnet",
        readOnly: false,
        enabled: true,
        source: { kind: "agents-json", scope: "global", path: globalFile() },
      },
      {
        name: "coder",
        description: "Project coder",
        systemPrompt: "You code.",
        model: "opus",
        readOnly: false,
        enabled: true,
        source: { kind: "agents-json", scope: "project", path: ".nyzhi/agents.json" },
        overrides: [{ kind: "agents-json", scope: "global", path: globalFile() }],
      },
    ]);
  });

  it("never throws: skips a malformed file and entries without description or prompt, with reasons", async () => {
    await write(globalFile(), '{ "broken": ');
    await write(projectFile(), {
      ok: { description: "Fine", prompt: "Works." },
      "no-prompt": { description: "Missing prompt" },
      "empty-description": { description: "  ", prompt: "x" },
      "Bad Name": { description: "d", prompt: "p" },
      "odd-model": { description: "d", prompt: "p", model: "gpt-9000" },
    });
    const { roles, warnings } = await loadAgentsJson({ global: globalFile(), project: projectFile() });
    expect(roles.map((role) => [role.name, role.model ?? "inherit"])).toEqual([
      ["ok", "inherit"],
      ["odd-model", "inherit"],
    ]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Skipped global agents\\.json ${globalFile()}: it is not valid JSON \\(.+\\); fix or remove it \\(it is left untouched\\)\\.$`,
        ),
      ),
      "project agents.json .nyzhi/agents.json: agent 'no-prompt' skipped: missing description or prompt",
      "project agents.json .nyzhi/agents.json: agent 'empty-description' skipped: missing description or prompt",
      "project agents.json .nyzhi/agents.json: agent 'Bad Name' skipped: the name must match [a-z0-9_-]+",
      "project agents.json .nyzhi/agents.json: agent 'odd-model' model \"gpt-9000\" ignored (unknown); it inherits the parent's model",
    ]);
    expect(await readFile(globalFile(), "utf8")).toBe('{ "broken": ');
  });
});

describe("writing agents.json", () => {
  it("adds and removes entries atomically, keeping the others (and their unknown fields)", async () => {
    await write(projectFile(), { keep: { description: "k", prompt: "p", extra: 42 } });
    expect(
      await writeAgentEntry(projectFile(), "fact-checker", { description: "Checks", prompt: "Verify." }),
    ).toEqual({
      replaced: false,
    });
    expect(
      await writeAgentEntry(projectFile(), "fact-checker", { description: "Checks v2", prompt: "Verify." }),
    ).toEqual({
      replaced: true,
    });
    expect(JSON.parse(await readFile(projectFile(), "utf8"))).toEqual({
      keep: { description: "k", prompt: "p", extra: 42 },
      "fact-checker": { description: "Checks v2", prompt: "Verify." },
    });
    expect(await removeAgentEntry(projectFile(), "fact-checker")).toBe(true);
    expect(await removeAgentEntry(projectFile(), "fact-checker")).toBe(false);
    expect(JSON.parse(await readFile(projectFile(), "utf8"))).toEqual({
      keep: { description: "k", prompt: "p", extra: 42 },
    });
    expect((await readdir(dirname(projectFile()))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("serialises writes through two symlinks to one file on the target's lock", async () => {
    await write(globalFile(), {});
    const links = [join(root, "link-a.json"), join(root, "link-b.json")];
    for (const link of links) await symlink(globalFile(), link);
    const names = Array.from({ length: 8 }, (_, index) => `agent-${index}`);
    await Promise.all(
      names.map((name, index) => writeAgentEntry(links[index % 2]!, name, { description: "d", prompt: "p" })),
    );
    expect(Object.keys(JSON.parse(await readFile(globalFile(), "utf8"))).sort()).toEqual(names);
    expect((await lstat(links[0]!)).isSymbolicLink()).toBe(true);
  });

  it("refuses to overwrite a corrupt file and leaves it untouched", async () => {
    await write(projectFile(), "[1, 2");
    await expect(writeAgentEntry(projectFile(), "x", { description: "d", prompt: "p" })).rejects.toThrow(
      /agents\.json is not valid JSON .*It was left untouched; fix or remove it by hand, then try again\./,
    );
    expect(await readFile(projectFile(), "utf8")).toBe("[1, 2");
  });

  it("validates names, description, prompt and model with reasons", () => {
    expect(
      agentDefinitionProblems("fact-checker", { description: "d", prompt: "p", model: "haiku" }),
    ).toEqual([]);
    expect(
      agentDefinitionProblems("ok_1", {
        description: "d",
        prompt: "p",
        model: "anthropic/claude-sonnet-4-6-20260217",
      }),
    ).toEqual([]);
    expect(
      agentDefinitionProblems("Fact Checker!", { description: "", prompt: " ", model: "gpt-9000" }),
    ).toEqual([
      "name 'Fact Checker!' is invalid: use only lowercase letters, digits, '-' and '_' (pattern [a-z0-9_-]+)",
      "description must be a non-empty string",
      "prompt must be a non-empty string",
      "model 'gpt-9000' is unknown: use inherit, sonnet, opus, haiku, or a model id listed by `nyz models`",
    ]);
  });
});

describe("role resolution order", () => {
  it("is agent files → project agents.json → global agents.json → config → built-in, and config toggles disable any layer", async () => {
    const config = configSchema.parse({
      agent: {
        agents: {
          roles: {
            tester: { model: "haiku" },
            "from-config": { description: "config only" },
            shared: { description: "config shared" },
            toggled: { enabled: false },
          },
        },
      },
    });
    await write(globalFile(), {
      tester: { description: "global tester", prompt: "g" },
      shared: { description: "global shared", prompt: "g" },
      toggled: { description: "global toggled", prompt: "g" },
    });
    await write(projectFile(), {
      shared: { description: "project shared", prompt: "p" },
      solo: { description: "project solo", prompt: "p" },
    });
    await write(join(root, ".nyzhi/agents/solo.md"), "---\ndescription: file solo\n---\nYou are solo.\n");
    const catalog = await RoleCatalog.load({ config, projectRoot: root, globalConfigDir: globalDir });
    expect(catalog.warnings).toEqual([]);
    const summary = (name: string) => {
      const role = catalog.get(name)!;
      return {
        description: role.description,
        source: role.source.kind,
        overrides: role.overrides?.map((source) =>
          "scope" in source && source.scope ? `${source.kind}:${source.scope}` : source.kind,
        ),
      };
    };
    expect(summary("solo")).toEqual({
      description: "file solo",
      source: "file",
      overrides: ["agents-json:project"],
    });
    expect(summary("shared")).toEqual({
      description: "project shared",
      source: "agents-json",
      overrides: ["agents-json:global", "config"],
    });
    expect(summary("tester")).toEqual({
      description: "global tester",
      source: "agents-json",
      overrides: ["config", "built-in"],
    });
    expect(summary("from-config")).toEqual({
      description: "config only",
      source: "config",
      overrides: undefined,
    });
    expect(summary("debugger")).toEqual({
      description: catalog.get("debugger")!.description,
      source: "built-in",
      overrides: undefined,
    });
    expect(catalog.get("toggled")).toMatchObject({
      enabled: false,
      source: { kind: "agents-json", scope: "global" },
    });
    expect(() => resolveRole("toggled", catalog)).toThrow(
      "Role 'toggled' is disabled (enabled = false in config). Enable it there or use another role.",
    );
    expect(catalog.enabled().map((role) => role.name)).not.toContain("toggled");
  });

  it("sees a new definition on reload, without a restart", async () => {
    const catalog = await RoleCatalog.load({ projectRoot: root, globalConfigDir: globalDir });
    expect(resolveRole("late", catalog).unknown).toBe(true);
    await writeAgentEntry(projectFile(), "late", { description: "Late", prompt: "You are late." });
    await catalog.reload();
    expect(resolveRole("late", catalog)).toMatchObject({
      unknown: false,
      role: { systemPrompt: "You are late." },
    });
  });
});
