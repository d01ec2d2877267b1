import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `pnpm demo` (scripts/demo.mjs) on the built nyz, without its build step: the scripted mock plays
 * the model while the real `nyz exec` works on a copy of examples/demo/sample.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

function runDemo(
  args: string[],
  options: { build?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["scripts/demo.mjs", ...(options.build ? [] : ["--no-build"]), ...args],
      {
        cwd: root,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("pnpm demo", () => {
  it("shows two subagents at once, a worker's approved edit with its diff, and the tree of agents — no JSON", async () => {
    const { code, stdout, stderr } = await runDemo([]);
    expect(code, stderr + stdout).toBe(0);
    const lines = stdout.split("\n");
    expect(lines.filter((line) => line.trimStart().startsWith("{"))).toEqual([]);
    // Nicknames are picked at random: read them from the spawn lines.
    const spawned = [...stdout.matchAll(/^\[Nizzy\]\s+spawned (\S+) \((\w+)\)/gm)].map((match) => ({
      nickname: match[1] ?? "",
      role: match[2] ?? "",
    }));
    // The explorer and the reviewer are spawned by one step's two parallel calls: either may print first.
    const roles = spawned.map((agent) => agent.role);
    expect([...roles.slice(0, 2)].sort()).toEqual(["explorer", "reviewer"]);
    expect(roles.slice(2)).toEqual(["worker"]);
    const [explorer, reviewer, worker] = spawned.map((agent) => agent.nickname);
    expect(stdout).toContain(`2 subagents running at the same time: ${explorer} and ${reviewer}`);
    for (const nickname of [explorer, reviewer, worker])
      expect(stdout).toMatch(new RegExp(`^\\[${nickname}\\]\\s+\\S`, "m"));
    expect(stdout).toMatch(/^\[Nizzy\]\s+→ task /m);
    expect(stdout).toMatch(new RegExp(`^\\[${worker}\\]\\s+asks to run edit: greet.js`, "m"));
    expect(stdout).toMatch(new RegExp(`^\\[${worker}\\]\\s+✔ approved — auto-answered: headless`, "m"));
    expect(stdout).toContain(["-  return `Helo, $", "{name}!`;"].join(""));
    expect(stdout).toContain(["+  return `Hello, $", "{name}!`;"].join(""));
    // The closing tree: the lead, then its three subagents with tokens and cost.
    const tree = stdout.slice(stdout.indexOf("\nAgents\n"));
    expect(tree).toMatch(/^Nizzy \(lead\)\s+[\d,]+ in \/ [\d,]+ out\s+\$\d+\.\d{4}\s+completed$/m);
    for (const [index, agent] of spawned.entries()) {
      const branch = index === spawned.length - 1 ? "└─" : "├─";
      expect(tree).toMatch(
        new RegExp(
          `^${branch} ${agent.nickname} \\(${agent.role}\\)\\s+[\\d,]+ in / [\\d,]+ out\\s+\\$\\d+\\.\\d{4}\\s+completed$`,
          "m",
        ),
      );
    }
    expect(tree).toMatch(/^total\s+[\d,]+ in \/ [\d,]+ out\s+\$\d+\.\d{4}\s+[\d.]+ s · anthropic\//m);
    expect(stdout).toContain("nyz exited 0");
  }, 180_000);

  it("builds quietly first: one progress line, no build log", async () => {
    // The suite has built already, so turbo's cache answers; the output is what a person sees.
    const { code, stdout, stderr } = await runDemo(["--json"], { build: true });
    expect(code, stderr).toBe(0);
    expect(stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^Building nyzhi \(the first time takes a minute\)… Built nyzhi in [\d.]+ s\.\s*$/,
      ),
    ]);
    expect(stdout.trim().split("\n").at(-1)).toContain('"type":"turn_complete"');
  }, 600_000);

  it("prints the same run as JSONL with --json", async () => {
    const { code, stdout, stderr } = await runDemo(["--json"]);
    expect(code, stderr).toBe(0);
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; role?: string; tool?: string });
    // As in the text run: one step's two parallel spawns may be reported in either order.
    const roles = events.filter((event) => event.type === "subagent_spawned").map((event) => event.role);
    expect([...roles.slice(0, 2)].sort()).toEqual(["explorer", "reviewer"]);
    expect(roles.slice(2)).toEqual(["worker"]);
    expect(events.filter((event) => event.type === "approval_granted").map((event) => event.tool)).toEqual([
      "edit",
      "bash",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "turn_complete", reason: "completed" });
  }, 180_000);
});
