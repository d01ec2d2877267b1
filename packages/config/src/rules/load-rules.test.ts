import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs, writeFiles } from "../testing/temp-dirs.js";
import { loadConditionalRules } from "./load-conditional-rules.js";
import { loadRules } from "./load-rules.js";

const temp = useTempDirs();
afterEach(() => temp.cleanup());

async function project(files: Record<string, string>): Promise<string> {
  const root = await temp.make();
  await writeFiles(root, files);
  return root;
}

describe("loadRules", () => {
  it("takes the first non-blank primary file in priority order", async () => {
    const all = {
      "AGENTS.md": "agents",
      ".nyzhi/rules.md": "nyzhi rules",
      ".nyzhi/instructions.md": "instructions",
      "CLAUDE.md": "claude",
      ".cursorrules": "cursor",
    };
    const order = Object.keys(all);
    for (let skip = 0; skip < order.length; skip++) {
      const files = Object.fromEntries(
        Object.entries(all).map(([name, content], index) => [name, index < skip ? "  \n\n" : content]),
      );
      const rules = await loadRules(await project(files));
      expect(rules.primarySource).toBe(order[skip]);
      expect(rules.text).toBe(all[order[skip] as keyof typeof all]);
    }
  });

  it("returns nothing when there are no rules", async () => {
    expect(await loadRules(await project({}))).toEqual({
      sections: [],
      conditional: [],
      primarySource: undefined,
      text: undefined,
      warnings: [],
    });
  });

  it("adds local preferences under a heading, then modular rules by filename; conditional ones apart", async () => {
    const root = await project({
      "CLAUDE.md": "Use pnpm.\n",
      "NYZHI.local.md": "   ",
      ".nyzhi/local.md": "I like short answers.\n",
      ".nyzhi/rules/b-style.md": "Two-space indent.\n",
      ".nyzhi/rules/a-tests.md": "---\ntitle: tests\n---\nColocate tests.\n",
      ".nyzhi/rules/c-api.md": '---\npaths:\n  - "src/api/**/*.ts"\n---\nValidate inputs with zod.\n',
      ".nyzhi/rules/d-empty.md": "\n",
      ".nyzhi/rules/notes.txt": "ignored",
    });
    const rules = await loadRules(root);
    expect(rules).toEqual({
      sections: [
        { kind: "primary", label: "CLAUDE.md", path: join(root, "CLAUDE.md"), content: "Use pnpm." },
        {
          kind: "local",
          label: ".nyzhi/local.md",
          path: join(root, ".nyzhi/local.md"),
          content: "# Local Preferences\n\nI like short answers.",
        },
        {
          kind: "modular",
          label: ".nyzhi/rules/a-tests.md",
          path: join(root, ".nyzhi/rules/a-tests.md"),
          content: "Colocate tests.",
        },
        {
          kind: "modular",
          label: ".nyzhi/rules/b-style.md",
          path: join(root, ".nyzhi/rules/b-style.md"),
          content: "Two-space indent.",
        },
      ],
      conditional: [
        {
          label: ".nyzhi/rules/c-api.md",
          path: join(root, ".nyzhi/rules/c-api.md"),
          globs: ["src/api/**/*.ts"],
          content: "Validate inputs with zod.",
        },
      ],
      primarySource: "CLAUDE.md",
      text: "Use pnpm.\n\n# Local Preferences\n\nI like short answers.\n\nColocate tests.\n\nTwo-space indent.",
      warnings: [],
    });
  });

  it("prefers NYZHI.local.md over .nyzhi/local.md", async () => {
    const rules = await loadRules(await project({ "NYZHI.local.md": "mine", ".nyzhi/local.md": "other" }));
    expect(rules.text).toBe("# Local Preferences\n\nmine");
  });

  it("skips a rule with broken front matter with a warning, and never evaluates JS front matter", async () => {
    const root = await project({
      ".nyzhi/rules/a.md": "---\npaths: [unclosed\n---\nBody\n",
      ".nyzhi/rules/b.md": "---js\n{ paths: (globalThis.__nyzhiPwned = true) }\n---\nBody\n",
      ".nyzhi/rules/c.md": "Kept.\n",
    });
    const rules = await loadRules(root);
    expect(rules.text).toBe("Kept.");
    expect(rules.warnings).toHaveLength(2);
    expect(rules.warnings[0]).toMatch(
      new RegExp(
        `^warning: ${join(root, ".nyzhi/rules/a.md")}: invalid front matter \\(.+\\); rule skipped$`,
      ),
    );
    expect(rules.warnings[1]).toBe(
      `warning: ${join(root, ".nyzhi/rules/b.md")}: invalid front matter (JavaScript front matter is not allowed); rule skipped`,
    );
    expect((globalThis as { __nyzhiPwned?: boolean }).__nyzhiPwned).toBeUndefined();
  });
});

describe("loadConditionalRules", () => {
  it("returns the bodies of rules whose paths: globs match any given file", async () => {
    const root = await project({
      ".nyzhi/rules/api.md": '---\npaths:\n  - "src/api/**/*.ts"\n---\nAPI rule\n',
      ".nyzhi/rules/docs.md": "---\npaths: docs/*.md\n---\nDocs rule\n",
      ".nyzhi/rules/css.md": '---\npaths: ["**/*.css", "**/*.scss"]\n---\nCSS rule\n',
      ".nyzhi/rules/always.md": "Always\n",
    });
    const matched = await loadConditionalRules(root, [join(root, "src/api/v1/users.ts"), "docs/intro.md"]);
    expect(matched.rules.map((rule) => rule.label)).toEqual([".nyzhi/rules/api.md", ".nyzhi/rules/docs.md"]);
    expect(matched.text).toBe("API rule\n\nDocs rule");

    expect((await loadConditionalRules(root, ["src/app/theme.scss"])).text).toBe("CSS rule");
    expect(await loadConditionalRules(root, ["src/api.ts", "docs/deep/x.md"])).toEqual({
      rules: [],
      text: undefined,
      warnings: [],
    });
  });
});
