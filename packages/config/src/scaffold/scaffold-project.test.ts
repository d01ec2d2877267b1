import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "smol-toml";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../layers/load-config.js";
import { mergeConfigLayers } from "../layers/merge-layers.js";
import { parseFrontMatter } from "../rules/parse-front-matter.js";
import { defaultConfig } from "../schema/config-schema.js";
import { useTempDirs, writeFiles } from "../testing/temp-dirs.js";
import { CONFIG_TEMPLATE } from "./project-templates.js";
import { scaffoldProject } from "./scaffold-project.js";

const temp = useTempDirs();
afterEach(() => temp.cleanup());

const CREATED = [
  ".nyzhi/config.toml",
  ".nyzhi/rules.md",
  ".nyzhi/agents/example-reviewer.md",
  ".nyzhi/commands/review.md",
  "NYZHI.local.md",
  ".nyzhi/rules",
];

describe("scaffoldProject", () => {
  it("creates the project files and appends personal files to an existing .gitignore", async () => {
    const root = await temp.make();
    await writeFiles(root, { ".gitignore": "node_modules\nNYZHI.local.md" });
    const result = await scaffoldProject(root);
    expect(result).toEqual({
      created: CREATED.map((path) => join(root, path)),
      skipped: [],
      gitignoreAdded: [".nyzhi/local.md", ".nyzhi/config.local.toml"],
    });
    expect(await readFile(join(root, ".gitignore"), "utf8")).toBe(
      "node_modules\nNYZHI.local.md\n.nyzhi/local.md\n.nyzhi/config.local.toml\n",
    );
    expect((await stat(join(root, ".nyzhi/rules"))).isDirectory()).toBe(true);
    expect(await readFile(join(root, ".nyzhi/commands/review.md"), "utf8")).toMatch(
      /^# Review code for issues\n\nReview \$ARGUMENTS/,
    );
  });

  it("refuses to overwrite existing files and reports them as skipped", async () => {
    const root = await temp.make();
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

  it("writes a config template that loads without warnings to the defaults", async () => {
    const root = await temp.make();
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
    await scaffoldProject(root);
    const parsed = await parseFrontMatter(
      await readFile(join(root, ".nyzhi/agents/example-reviewer.md"), "utf8"),
    );
    expect(parsed.ok && Object.keys(parsed.data)).toEqual(["name", "description", "tools", "model"]);
    expect(parsed.ok && parsed.body.trim().startsWith("You are a careful code reviewer.")).toBe(true);
  });
});
