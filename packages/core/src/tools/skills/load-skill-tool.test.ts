import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSkills } from "../../skills/load-skills.js";
import { SKILLS_SERVICE, type Skill } from "../../skills/skill-types.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { loadSkillTool } from "./load-skill-tool.js";

let test: TestContext;
let skills: Skill[];

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

beforeEach(async () => {
  test = await createTestContext();
  const root = test.cwd;
  await put(
    join(root, ".claude/skills/pdf/SKILL.md"),
    "---\nname: pdf\ndescription: Work with PDFs\n---\n# PDF\n\nRun `scripts/fill.py`.\n",
  );
  await put(join(root, ".claude/skills/pdf/scripts/fill.py"), "print('fill')\n");
  await put(join(root, ".claude/skills/pdf/reference.md"), "ref\n");
  await put(join(root, ".nyzhi/skills/deploy.md"), "---\ndescription: Deploy\n---\nShip it.\n");
  skills = (await loadSkills(root, { NYZHI_HOME: join(root, ".nyzhi-home") })).skills;
  test.context.services[SKILLS_SERVICE] = () => skills;
});
afterEach(async () => {
  await test.cleanup();
});

describe("load_skill", () => {
  it("is a read-only read tool", () => {
    expect(loadSkillTool).toMatchObject({ name: "load_skill", kind: "read", mutates: false });
  });

  it("returns the body without front matter and lists the skill's other files", async () => {
    expect(await runTool(loadSkillTool, { name: "pdf" }, test.context)).toEqual({
      output:
        "# Skill: pdf\n\n# PDF\n\nRun `scripts/fill.py`.\n\n" +
        `## Files in this skill\nBase directory: ${join(test.cwd, ".claude/skills/pdf")}\n` +
        "- reference.md\n- scripts/fill.py",
    });
  });

  it("returns a flat skill's body", async () => {
    expect(await runTool(loadSkillTool, { name: "deploy" }, test.context)).toEqual({
      output: "# Skill: deploy\n\nShip it.",
    });
  });

  it("names the available skills when the name is unknown", async () => {
    expect(await runTool(loadSkillTool, { name: "nope" }, test.context)).toEqual({
      output: "Skill 'nope' not found. Available skills: deploy, pdf",
      isError: true,
    });
    skills = [];
    expect(await runTool(loadSkillTool, { name: "nope" }, test.context)).toEqual({
      output: "Skill 'nope' not found: no skills are available.",
      isError: true,
    });
  });

  it("reports a missing service", async () => {
    delete test.context.services[SKILLS_SERVICE];
    expect(await runTool(loadSkillTool, { name: "pdf" }, test.context)).toEqual({
      output: "Skills are not available in this session.",
      isError: true,
    });
  });
});
