import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
// The built core, as the worker processes use it (the root `pnpm test` builds first).
import { DEFAULT_STALE_LOCK_MS } from "../../packages/config/dist/index.js";
import { Mailbox, TaskBoard, type TeamMessage, TeamStore } from "../../packages/core/dist/index.js";

const CORE_URL = pathToFileURL(
  fileURLToPath(new URL("../../packages/core/dist/index.js", import.meta.url)),
).href;
const WORKER = fileURLToPath(new URL("./fixtures/teams-worker.mjs", import.meta.url));

let dirs: { teams: string; tasks: string };
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), "nyzhi-teams-race-"));
  dirs = { teams: join(root, "teams"), tasks: join(root, "tasks") };
  await new TeamStore(dirs).create({ name: "race", members: [{ name: "inbox-owner" }] });
});

function worker(mode: string, name: string, count = 0): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(
    process.execPath,
    [WORKER, CORE_URL, mode, dirs.teams, dirs.tasks, "race", name, String(count)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<string>((resolve, reject) =>
    child.on("close", (code, signal) =>
      code === 0 ? resolve(stdout) : reject(new Error(`worker ${name} ended ${code ?? signal}: ${stderr}`)),
    ),
  );
  return { child, done };
}

/** Every JSON file under the team's and the board's directories still parses. */
async function expectAllFilesParse(): Promise<void> {
  for (const dir of [
    join(dirs.teams, "race"),
    join(dirs.teams, "race", "inboxes"),
    join(dirs.tasks, "race"),
  ]) {
    for (const file of await readdir(dir)) {
      if (!file.endsWith(".json")) continue;
      expect(() => JSON.parse(require_(join(dir, file)))).not.toThrow();
    }
  }
}
const files = new Map<string, string>();
const require_ = (path: string) => files.get(path)!;
async function loadFiles(): Promise<void> {
  for (const dir of [join(dirs.teams, "race"), join(dirs.teams, "race", "inboxes"), join(dirs.tasks, "race")])
    for (const file of await readdir(dir))
      if (file.endsWith(".json")) files.set(join(dir, file), await readFile(join(dir, file), "utf8"));
}

describe("teams under concurrency (8 real processes on the built core)", () => {
  it("8 processes × 200 messages to one inbox: none lost, none duplicated, the file parses", async () => {
    const senders = Array.from({ length: 8 }, (_, index) => worker("send", `p${index}`, 200));
    await Promise.all(senders.map((sender) => sender.done));
    const inbox = JSON.parse(
      await readFile(join(dirs.teams, "race", "inboxes", "inbox-owner.json"), "utf8"),
    ) as TeamMessage[];
    expect(inbox).toHaveLength(1600);
    expect(new Set(inbox.map((message) => message.text)).size).toBe(1600);
    expect(new Set(inbox.map((message) => message.id)).size).toBe(1600);
    for (let sender = 0; sender < 8; sender += 1) {
      // Each sender's messages arrive in the order it sent them.
      const mine = inbox.filter((message) => message.from === `p${sender}`).map((message) => message.text);
      expect(mine).toEqual(Array.from({ length: 200 }, (_, index) => `p${sender}:${index}`));
    }
    const taken = await new Mailbox(dirs).takeUnread("race", "inbox-owner");
    expect(taken).toHaveLength(1600);
    await loadFiles();
    await expectAllFilesParse();
  }, 60_000);

  it("8 processes racing to claim 50 tasks: each task claimed exactly once, by its recorded owner", async () => {
    const board = new TaskBoard(dirs);
    for (let index = 1; index <= 50; index += 1) await board.create("race", { subject: `task ${index}` });
    const claimers = Array.from({ length: 8 }, (_, index) => worker("claim", `c${index}`));
    const results = await Promise.all(
      claimers.map(async (claimer) => JSON.parse(await claimer.done) as string[]),
    );
    const all = results.flat();
    expect(all).toHaveLength(50);
    expect(new Set(all).size).toBe(50);
    const tasks = await board.list("race");
    for (const [index, claimed] of results.entries())
      for (const id of claimed)
        expect(tasks.find((task) => task.id === id)).toMatchObject({
          owner: `c${index}`,
          status: "in_progress",
        });
    expect(await readFile(join(dirs.tasks, "race", ".highwatermark"), "utf8")).toBe("50");
    await loadFiles();
    await expectAllFilesParse();
  }, 60_000);

  it("a process SIGKILLed while holding the inbox lock does not block the others beyond the stale-lock timeout", async () => {
    const holder = worker("hold-lock", "holder");
    await new Promise<void>((resolve) =>
      holder.child.stdout!.on("data", (chunk: string) => chunk.includes("locked") && resolve()),
    );
    holder.child.kill("SIGKILL");
    await holder.done.catch(() => undefined);
    const started = Date.now();
    const senders = Array.from({ length: 4 }, (_, index) => worker("send", `after${index}`, 10));
    await Promise.all(senders.map((sender) => sender.done));
    expect(Date.now() - started).toBeLessThan(DEFAULT_STALE_LOCK_MS);
    expect(await new Mailbox(dirs).unreadCount("race", "inbox-owner")).toBe(40);
  }, 30_000);
});
