import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSkills } from "./load-skills.js";
import { skillsIndexFragment } from "./skills-index-fragment.js";

let root: string;
let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-skills-")));
  root = join(base, "project");
  home = join(base, "home");
  env = { NYZHI_HOME: home };
});
afterEach(async () => {
  await rm(dirname(root), { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

describe("loadSkills", () => {
  it("reads both layouts from .nyzhi, .claude and the global dir, with precedence", async () => {
    const review = await put(
      join(root, ".nyzhi/skills/review/SKILL.md"),
      "---\nname: review\ndescription: Review a change for bugs\n---\n# Review\nSteps…\n",
    );
    await put(
      join(root, ".claude/skills/review/SKILL.md"),
      "---\nname: review\ndescription: Claude's review\n---\nbody\n",
    );
    const pdf = await put(
      join(root, ".claude/skills/pdf-tools/SKILL.md"),
      "---\nname: pdf\ndescription: >\n  Fill PDF forms\n  and extract text\n---\nUse scripts/fill.py\n",
    );
    const deploy = await put(
      join(root, ".nyzhi/skills/deploy.md"),
      "# Deploy\n\nShip it to production safely.\n",
    );
    const legacy = await put(
      join(root, ".nyzhi/skills/legacy.md"),
      "# Legacy\nSome intro\ndescription: Old-style description line\n",
    );
    const globalSkill = await put(
      join(home, "config/skills/commit/SKILL.md"),
      "---\ndescription: Write a commit message\n---\nbody\n",
    );
    await put(join(home, "config/skills/deploy.md"), "Global deploy, shadowed by the project\n");
    await put(join(root, ".nyzhi/skills/notes/README.md"), "a folder without SKILL.md is not a skill");

    expect(await loadSkills(root, env)).toEqual({
      skills: [
        { name: "commit", description: "Write a commit message", path: globalSkill, source: "global" },
        { name: "deploy", description: "Ship it to production safely.", path: deploy, source: "nyzhi" },
        { name: "legacy", description: "Old-style description line", path: legacy, source: "nyzhi" },
        { name: "pdf", description: "Fill PDF forms and extract text", path: pdf, source: "claude" },
        { name: "review", description: "Review a change for bugs", path: review, source: "nyzhi" },
      ],
      warnings: [],
    });
  });

  it("skips broken front matter with a warning naming the file, and cuts long fallbacks", async () => {
    const broken = await put(
      join(root, ".claude/skills/broken/SKILL.md"),
      "---\nname: broken\ndescription: [unclosed\n  - nested: {\n---\nbody\n",
    );
    await put(join(root, ".nyzhi/skills/long.md"), `---\n---\n\n---\n## Heading\n${"word ".repeat(40)}\n`);
    const flat = await put(join(root, ".nyzhi/skills/both.md"), "flat");
    const folder = await put(join(root, ".nyzhi/skills/both/SKILL.md"), "folder wins");
    const result = await loadSkills(root, env);
    expect(result.skills.map((skill) => [skill.name, skill.description])).toEqual([
      ["both", "folder wins"],
      ["long", "word ".repeat(24).trim()],
    ]);
    expect(result.skills[0]?.path).toBe(folder);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings).toContain(`warning: ${flat}: shadowed by ${folder}; skill skipped`);
    expect(result.warnings.find((warning) => warning.includes(broken))).toMatch(
      /^warning: .*broken\/SKILL\.md: invalid front matter \(.+\); skill skipped$/,
    );
  });

  it("finds nothing when no skill directory exists", async () => {
    expect(await loadSkills(root, env)).toEqual({ skills: [], warnings: [] });
  });
});

describe("skillsIndexFragment", () => {
  it("lists each skill and tells the model to call load_skill", () => {
    const fragment = skillsIndexFragment([
      { name: "deploy", description: "Ship it", path: "/p/deploy.md", source: "nyzhi" },
      { name: "bare", description: "", path: "/p/bare.md", source: "nyzhi" },
    ]);
    expect(fragment).toEqual({
      kind: "skills",
      text:
        "# Available Skills\n\n" +
        "Skills are instructions for specific kinds of task, written for this project or by the user. " +
        "Before starting a task that matches a skill's description, call `load_skill` with its name " +
        "and follow what it says.\n\n" +
        "- **deploy**: Ship it\n- **bare**",
    });
    expect(skillsIndexFragment([])).toEqual({ kind: "skills", text: "" });
  });
});
