import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";
const CHILD = { regex: "^(?!You are Nizzy)" };

function hasGit(): boolean {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

let mock: MockLlm | undefined;
let repo: string;
let home: string;
beforeEach(async () => {
  home = await tempHome();
  repo = await mkdtemp(join(tmpdir(), "nyzhi-e2e-worktree-"));
  if (!hasGit()) return;
  gitIn(repo, "init", "-q");
  await writeFile(join(repo, "notes.txt"), "colour: blue\n");
  gitIn(repo, "add", ".");
  gitIn(repo, "commit", "-qm", "init");
  // Uncommitted work of the person's: the agents start from it too.
  await writeFile(join(repo, "draft.txt"), "a draft\n");
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const worktreeCount = () => gitIn(repo, "worktree", "list").split("\n").length;
const agentBranches = () =>
  gitIn(repo, "branch", "--list", "nyzhi/*")
    .split("\n")
    .map((line) => line.replace(/^[*+ ]+/, "").trim())
    .filter(Boolean);

/** A child that writes `content` into notes.txt, then reports `done`. */
const writer = (task: string, content: string, done: string): Scenario["rules"] => [
  {
    match: { system: CHILD, lastUser: task, lastIsToolResult: false },
    response: { toolCalls: [{ name: "write", arguments: { file_path: "notes.txt", content } }] },
  },
  { match: { system: CHILD, lastUser: task }, response: { text: done } },
];

describe.skipIf(!hasGit())("agent worktrees through nyz exec (real git)", () => {
  it("two task children edit one file in parallel in their worktrees; merge applies the first, reports the second's conflict, discard leaves nothing", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: ["green", "red"].map((colour) => ({
              name: "task",
              arguments: {
                subagent_type: "general-purpose",
                description: `make it ${colour}`,
                isolation: "worktree",
              },
            })),
          },
        },
        { match: { system: LEAD }, response: { text: "Both wait for you." } },
        ...writer("make it green", "colour: green\n", "green done"),
        ...writer("make it red", "colour: red\n", "red done"),
      ],
    });
    const env = anthropicEnv(mock, home);
    const first = await runNyz(["exec", "--json", "--full-auto", "recolour twice"], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(first.code).toBe(0);
    const events = lines(first.stdout);
    // In parallel: both children's first requests were open before either's second.
    const childRequests = mock.requests.filter((request) => !request.system?.includes(LEAD));
    expect(childRequests).toHaveLength(4);
    const results = events.filter((event) => event.type === "tool_done" && event.name === "task");
    expect(results.map((event) => event.is_error)).toEqual([false, false]);
    for (const result of results) {
      expect(String(result.output)).toMatch(
        /\[worktree\] Its changes wait on branch `nyzhi\/[a-z-]+-[0-9a-f]{8}` \(worktree .*\): 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)\. See them with `git diff [0-9a-f]{12} nyzhi\//,
      );
    }
    // The person's tree is untouched; each branch holds its agent's edit, on top of the person's draft.
    expect(await readFile(join(repo, "notes.txt"), "utf8")).toBe("colour: blue\n");
    const done = events.at(-1)!;
    const left = done.worktrees as {
      agent_id: string;
      branch: string;
      nickname: string;
      diff_stat: string;
    }[];
    expect(left).toHaveLength(2);
    expect(worktreeCount()).toBe(3);
    expect(agentBranches().sort()).toEqual(left.map((entry) => entry.branch).sort());
    const [green, red] = ["green", "red"].map(
      (colour) => left.find((entry) => gitIn(repo, "show", `${entry.branch}:notes.txt`).includes(colour))!,
    );
    expect(gitIn(repo, "show", `${green!.branch}:draft.txt`)).toBe("a draft");
    expect(first.stderr).toContain(`changes wait on branch ${green!.branch}`);

    // The next run: the lead merges the green agent's changes, then the red one's, then discards red.
    mock.setScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: { toolCalls: [{ name: "merge_agent_changes", arguments: { id: green!.agent_id } }] },
        },
        {
          match: { system: LEAD, anyMessage: "conflict" },
          times: 1,
          response: { toolCalls: [{ name: "discard_agent_changes", arguments: { id: red!.agent_id } }] },
        },
        {
          match: { system: LEAD, anyMessage: "Discarded" },
          response: { text: "Green merged, red dropped." },
        },
        {
          match: { system: LEAD, lastIsToolResult: true },
          response: { toolCalls: [{ name: "merge_agent_changes", arguments: { id: red!.agent_id } }] },
        },
      ],
    });
    const second = await runNyz(["exec", "--json", "--full-auto", "merge them"], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/Agent changes wait for a decision/);
    const decided = lines(second.stdout).filter((event) => event.type === "tool_done");
    expect(decided.map((event) => [event.name, event.is_error])).toEqual([
      ["merge_agent_changes", false],
      ["merge_agent_changes", true],
      ["discard_agent_changes", false],
    ]);
    expect(String(decided[0]!.output)).toContain("Merged the changes of");
    expect(String(decided[1]!.output)).toMatch(
      /conflict with your tree in: notes\.txt\. Nothing was changed/,
    );
    // Merged as uncommitted changes; the person's draft is still there.
    expect(await readFile(join(repo, "notes.txt"), "utf8")).toBe("colour: green\n");
    expect(await readFile(join(repo, "draft.txt"), "utf8")).toBe("a draft\n");
    expect(gitIn(repo, "log", "--oneline").split("\n")).toHaveLength(1);
    // Merge and discard left nothing behind.
    expect(worktreeCount()).toBe(1);
    expect(agentBranches()).toEqual([]);
    expect(await readdir(join(home, "data", "worktrees"))).toEqual([]);
    expect(lines(second.stdout).at(-1)!.worktrees).toBeUndefined();
  }, 150_000);

  it("a conflicting merge leaves both sides intact", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "task",
                arguments: {
                  subagent_type: "general-purpose",
                  description: "make it green",
                  isolation: "worktree",
                },
              },
            ],
          },
        },
        { match: { system: LEAD }, response: { text: "ok" } },
        ...writer("make it green", "colour: green\n", "green done"),
      ],
    });
    const env = anthropicEnv(mock, home);
    const first = await runNyz(["exec", "--json", "--full-auto", "recolour"], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(first.code).toBe(0);
    const [left] = lines(first.stdout).at(-1)!.worktrees as {
      agent_id: string;
      branch: string;
      path: string;
    }[];
    // The person edits the same line meanwhile.
    await writeFile(join(repo, "notes.txt"), "colour: purple\n");
    mock.setScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: { toolCalls: [{ name: "merge_agent_changes", arguments: { id: left!.agent_id } }] },
        },
        { match: { system: LEAD }, response: { text: "conflict seen" } },
      ],
    });
    const second = await runNyz(["exec", "--json", "--full-auto", "merge"], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(second.code).toBe(0);
    expect(await readFile(join(repo, "notes.txt"), "utf8")).toBe("colour: purple\n");
    expect(gitIn(repo, "show", `${left!.branch}:notes.txt`)).toBe("colour: green");
    expect(existsSync(left!.path)).toBe(true);
    expect(lines(second.stdout).at(-1)!.worktrees).toHaveLength(1);
  }, 120_000);

  it("a SIGKILL during a child's run leaves a worktree that the next start removes", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastUser: "slow", lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "task",
                arguments: {
                  subagent_type: "general-purpose",
                  description: "work slowly",
                  isolation: "worktree",
                },
              },
            ],
          },
        },
        { match: { system: CHILD, lastUser: "work slowly" }, response: { fault: { type: "hang" } } },
        { match: { system: LEAD }, response: { text: "hello again" } },
      ],
    });
    const env = {
      ...anthropicEnv(mock, home),
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: repo,
      NYZHI_LOG: "silent",
    };
    const child = spawn(process.execPath, [NYZ_BIN, "exec", "--full-auto", "slow"], {
      cwd: repo,
      env,
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("close", resolve));
    const records = join(home, "data", "worktrees");
    const deadline = Date.now() + 60_000;
    while (!mock.requests.some((request) => request.messages[0]?.text === "work slowly")) {
      if (Date.now() > deadline) throw new Error("the child never asked the model");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGKILL");
    await exited;
    expect(worktreeCount()).toBe(2);
    expect(agentBranches()).toHaveLength(1);
    expect((await readdir(records)).filter((name) => name.endsWith(".json"))).toHaveLength(1);

    const next = await runNyz(["exec", "--full-auto", "hello"], {
      cwd: repo,
      env: anthropicEnv(mock, home),
      timeoutMs: 60_000,
    });
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/Removed agent worktree .* left by a run that ended while it worked/);
    expect(worktreeCount()).toBe(1);
    expect(agentBranches()).toEqual([]);
    expect(await readdir(records)).toEqual([]);
  }, 150_000);

  it("honours a Claude Code agent file's `isolation: worktree`", async () => {
    await mkdir(join(repo, ".claude", "agents"), { recursive: true });
    await writeFile(
      join(repo, ".claude", "agents", "isolated-writer.md"),
      "---\nname: isolated-writer\ndescription: writes files on its own branch\ntools: Write, Read\nisolation: worktree\n---\nYou write files.\n",
    );
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "task", arguments: { subagent_type: "isolated-writer", description: "write out.txt" } },
            ],
          },
        },
        { match: { system: LEAD }, response: { text: "written on its branch" } },
        {
          match: { system: CHILD, lastUser: "write out.txt", lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "write", arguments: { file_path: "out.txt", content: "from the agent\n" } }],
          },
        },
        { match: { system: CHILD, lastUser: "write out.txt" }, response: { text: "done" } },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "delegate the write"], {
      cwd: repo,
      env: anthropicEnv(mock, home),
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(repo, "out.txt"))).toBe(false);
    const [left] = lines(result.stdout).at(-1)!.worktrees as { branch: string }[];
    expect(gitIn(repo, "show", `${left!.branch}:out.txt`)).toBe("from the agent");
  }, 90_000);

  it("asking for a worktree outside a git repository is a clear error", async () => {
    const plain = await tempProject("nyzhi-e2e-nogit-");
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "task",
                arguments: { subagent_type: "general-purpose", description: "x", isolation: "worktree" },
              },
            ],
          },
        },
        { match: { system: LEAD }, response: { text: "understood" } },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "isolate"], {
      cwd: plain,
      env: anthropicEnv(mock, home),
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(0);
    const done = lines(result.stdout).find((event) => event.type === "tool_done" && event.name === "task")!;
    expect(done.is_error).toBe(true);
    expect(String(done.output)).toMatch(
      /isolation "worktree" needs a git repository, and .* is not in one: run `git init`/,
    );
  }, 60_000);
});
