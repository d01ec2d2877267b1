import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { controlScriptsOf, matchControlFile, scriptsNamedBy, splitCommandWords } from "./control-files.js";

const ROOT = "/work/project";
const control = { roots: [ROOT], files: [`${ROOT}/scripts/hook.sh`] };

describe("matchControlFile", () => {
  it("names the rule for each control file, at any depth below a root", () => {
    const rules = Object.fromEntries(
      [
        ".nyzhi",
        ".nyzhi/config.toml",
        ".nyzhi/config.local.toml",
        ".nyzhi/rules/style.md",
        ".nyzhi/commands/deploy.md",
        "packages/app/.nyzhi/config.toml",
        ".claude",
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".claude/agents/reviewer.md",
        ".claude/commands/ship.md",
        ".claude/hooks/pre.sh",
        ".mcp.json",
        "scripts/hook.sh",
      ].map((path) => [path, matchControlFile(join(ROOT, path), control)]),
    );
    expect(rules).toEqual({
      ".nyzhi": ".nyzhi/**",
      ".nyzhi/config.toml": ".nyzhi/**",
      ".nyzhi/config.local.toml": ".nyzhi/**",
      ".nyzhi/rules/style.md": ".nyzhi/**",
      ".nyzhi/commands/deploy.md": ".nyzhi/**",
      "packages/app/.nyzhi/config.toml": ".nyzhi/**",
      ".claude": ".claude",
      ".claude/settings.json": ".claude/settings*.json",
      ".claude/settings.local.json": ".claude/settings*.json",
      ".claude/agents/reviewer.md": ".claude/agents/**",
      ".claude/commands/ship.md": ".claude/commands/**",
      ".claude/hooks/pre.sh": ".claude/hooks/**",
      ".mcp.json": ".mcp.json",
      "scripts/hook.sh": "a script a hook or MCP server runs",
    });
  });

  it("leaves ordinary files and nyzhi's own working data alone", () => {
    for (const path of [
      "src/index.ts",
      "README.md",
      "scripts/build.sh",
      ".nyzhi-notes.md",
      ".claude/skills/x/SKILL.md",
      ".claude/notes.md",
      ".nyzhi/notepads/plan.md",
      ".nyzhi/context/tools/mcp-index.md",
      ".nyzhi/agents.json",
      "docs/.mcp.json.example",
    ]) {
      expect(matchControlFile(join(ROOT, path), control), path).toBeUndefined();
    }
    // The root's own location does not count: only the path below the root is matched.
    expect(
      matchControlFile("/home/u/.nyzhi/work/src/a.ts", { roots: ["/home/u/.nyzhi/work"], files: [] }),
    ).toBe(undefined);
  });
});

describe("scripts a hook or MCP server runs", () => {
  it("takes the first word when it is a path, and an interpreter's first operand, inside the project", () => {
    const of = (command: string) => scriptsNamedBy(splitCommandWords(command), ROOT);
    expect(of("./scripts/hook.sh --fast")).toEqual([`${ROOT}/scripts/hook.sh`]);
    expect(of("bash .nyzhi/hooks/start.sh")).toEqual([`${ROOT}/.nyzhi/hooks/start.sh`]);
    expect(of(`node "${ROOT}/tools/server.mjs" --port 1`)).toEqual([`${ROOT}/tools/server.mjs`]);
    expect(of("python3 -u hooks/x.py")).toEqual([`${ROOT}/hooks/x.py`]);
    expect(of("echo start >> hooks.log")).toEqual([]);
    expect(of("bash -c 'make lint'")).toEqual([]);
    expect(of("/usr/bin/env true")).toEqual([]);
    expect(of("../elsewhere/hook.sh")).toEqual([]);
    expect(of("$HOME/hook.sh")).toEqual([]);
    expect(
      controlScriptsOf({
        hookCommands: ["./a.sh", "./a.sh x"],
        programs: [
          ["node", "mcp/server.mjs"],
          ["npx", "-y", "some-server"],
        ],
        projectRoot: ROOT,
      }),
    ).toEqual([`${ROOT}/a.sh`, `${ROOT}/mcp/server.mjs`]);
  });
});
