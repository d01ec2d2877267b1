import { readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../layers/load-config.js";
import { mergeConfigLayers } from "../layers/merge-layers.js";
import { parseFrontMatter } from "../rules/parse-front-matter.js";
import { defaultConfig } from "../schema/config-schema.js";
import { useTempDirs, writeFiles } from "../testing/temp-dirs.js";
import { gitExcludeFile } from "./ignore-local-files.js";
import { CONFIG_TEMPLATE } from "./project-templates.js";
import { scaffoldProject } from "./scaffold-project.js";

const temp = useTempDirs();
afterEach(() => temp.cleanup());

/** Whether the temp dir lies inside a git repository (then a root without its own ignore file would reach it). */
const tmpInsideRepository = gitExcludeFile(tmpdir()) !== undefined;

/** A `.gitignore` of its own, so `nyz init` never walks up to a repository above the temp dir. */
async function keepOutOfOuterRepositories(root: string): Promise<void> {
  await writeFiles(root, { ".gitignore": "" });
}

const CREATED = [
  ".nyzhi/config.toml",
  ".nyzhi/rules.md",
  ".nyzhi/agents/example-reviewer.md",
  ".nyzhi/commands/review.md",
  "NYZHI.local.md",
  ".nyzhi/rules",
  ".nyzhi/.gitignore",
];

describe("scaffoldProject", () => {
  it("creates the project files, .nyzhi/.gitignore, and adds NYZHI.local.md to an existing .gitignore", async () => {
    const root = await temp.make();
    await writeFiles(root, { ".gitignore": "node_modules" });
    const result = await scaffoldProject(root);
    expect(result).toEqual({
      created: CREATED.map((path) => join(root, path)),
      skipped: [],
      gitignoreAdded: ["NYZHI.local.md"],
      ignoreFile: join(root, ".gitignore"),
    });
    expect(await readFile(join(root, ".gitignore"), "utf8")).toBe("node_modules\nNYZHI.local.md\n");
    expect(await readFile(join(root, ".nyzhi/.gitignore"), "utf8")).toBe(
      "# Written by nyzhi: files of this machine, kept out of commits.\nconfig.local.toml\nlocal.md\ncontext/\n",
    );
    expect((await stat(join(root, ".nyzhi/rules"))).isDirectory()).toBe(true);
    expect(await readFile(join(root, ".nyzhi/commands/review.md"), "utf8")).toMatch(
      /^# Review code for issues\n\nReview \$ARGUMENTS/,
    );
  });

  it("refuses to overwrite existing files and reports them as skipped", async () => {
    const root = await temp.make();
    await keepOutOfOuterRepositories(root);
    await writeFiles(root, { ".nyzhi/config.toml": "# mine\n", "NYZHI.local.md": "mine" });
    const result = await scaffoldProject(root);
    expect(result.skipped).toEqual([join(root, ".nyzhi/config.toml"), join(root, "NYZHI.local.md")]);
    expect(result.created).toEqual(
      CREATED.filter((path) => path !== ".nyzhi/config.toml" && path !== "NYZHI.local.md").map((path) =>
        join(root, path),
      ),
    );
    expect(await readFile(join(root, ".nyzhi/config.toml"), "utf8")).toBe("# mine\n");
    expect(await readFile(join(root, "NYZHI.local.md"), "utf8")).toBe("mine");

    const again = await scaffoldProject(root);
    expect(again.created).toEqual([]);
    expect(again.gitignoreAdded).toEqual([]);
  });

  it("ignores NYZHI.local.md in the repository's .git/info/exclude when the project has no .gitignore", async () => {
    const repository = await temp.make();
    await writeFiles(repository, {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/info/exclude": "# git's own\n",
    });
    const root = join(repository, "packages", "app");
    const result = await scaffoldProject(root);
    expect(result.gitignoreAdded).toEqual(["NYZHI.local.md"]);
    expect(result.ignoreFile).toBe(join(repository, ".git", "info", "exclude"));
    expect(await readFile(join(repository, ".git", "info", "exclude"), "utf8")).toBe(
      "# git's own\nNYZHI.local.md\n",
    );
    await expect(stat(join(root, ".gitignore"))).rejects.toThrow();
  });

  it.skipIf(tmpInsideRepository)(
    "finds the exclude file of a linked worktree, and adds nothing outside a repository",
    async () => {
      const base = await temp.make();
      await writeFiles(base, {
        "main/.git/worktrees/wt/commondir": "../..\n",
        "wt/.git": `gitdir: ${join(base, "main", ".git", "worktrees", "wt")}\n`,
      });
      expect(gitExcludeFile(join(base, "wt", "src"))).toBe(join(base, "main", ".git", "info", "exclude"));

      const outside = await temp.make();
      const result = await scaffoldProject(outside);
      expect(result.gitignoreAdded).toEqual([]);
      expect(result.ignoreFile).toBeUndefined();
      expect(await readFile(join(outside, ".nyzhi/.gitignore"), "utf8")).toContain("config.local.toml\n");
    },
  );

  it("writes a config template that loads without warnings to the defaults", async () => {
    const root = await temp.make();
    await keepOutOfOuterRepositories(root);
    const home = await temp.make();
    await scaffoldProject(root);
    const loaded = await loadConfig({ projectRoot: root, env: { NYZHI_HOME: home } });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.config).toEqual(defaultConfig());
  });

  it("shows only real keys with valid values: uncommenting every setting loads cleanly", () => {
    const uncommented = CONFIG_TEMPLATE.split("\n")
      .map((line) => line.replace(/^# (?=\[|[a-z_]+ = )/, ""))
      .join("\n");
    const { warnings, config } = mergeConfigLayers([
      { layer: "project", source: "template", data: parse(uncommented) as Record<string, unknown> },
    ]);
    expect(warnings).toEqual([]);
    expect(config.agent.agents.roles.reviewer).toEqual({
      description: "Reviews changes",
      read_only: true,
      enabled: true,
    });
    expect(config.agent.hooks).toHaveLength(1);
    const { agent, mcp, ...rest } = config;
    const { agent: defaultAgent, mcp: _defaultMcp, ...defaultRest } = defaultConfig();
    expect(rest).toEqual(defaultRest);
    expect({ ...agent, hooks: [], commands: [], agents: { ...agent.agents, roles: {} } }).toEqual(
      defaultAgent,
    );
    expect(mcp.servers.example).toEqual({
      command: "npx",
      args: ["-y", "example-mcp-server"],
      env: {},
      enabled: true,
    });
  });

  it("writes an example role file with name, description, tools and model front matter", async () => {
    const root = await temp.make();
    await keepOutOfOuterRepositories(root);
    await scaffoldProject(root);
    const parsed = await parseFrontMatter(
      await readFile(join(root, ".nyzhi/agents/example-reviewer.md"), "utf8"),
    );
    expect(parsed.ok && Object.keys(parsed.data)).toEqual(["name", "description", "tools", "model"]);
    expect(parsed.ok && parsed.body.trim().startsWith("You are a careful code reviewer.")).toBe(true);
  });
});
