import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Mailbox } from "./mailbox.js";
import { TaskBoard } from "./task-board.js";
import { formatTeammateMessages, parseStructured, structuredText } from "./team-message.js";
import { TeamStore } from "./team-store.js";
import type { TeamDirs } from "./team-types.js";

let dirs: TeamDirs;
let store: TeamStore;
let mailbox: Mailbox;
let board: TaskBoard;
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), "nyzhi-team-state-"));
  dirs = { teams: join(root, "teams"), tasks: join(root, "tasks") };
  store = new TeamStore(dirs);
  mailbox = new Mailbox(dirs);
  board = new TaskBoard(dirs);
});

describe("team store", () => {
  it("creates config.json in the spec's shape, an inbox per member and the high-water mark", async () => {
    await store.create({ name: "alpha", members: [{ name: "ana", role: "explorer" }, { name: "bo" }] });
    const config = JSON.parse(await readFile(join(dirs.teams, "alpha", "config.json"), "utf8"));
    expect(config).toEqual({
      name: "alpha",
      created_at: expect.any(String),
      max_steps: 0,
      members: [
        { name: "team-lead", agentId: null, agentType: "leader", color: "#e06c75" },
        {
          name: "ana",
          agentId: null,
          agentType: "general-purpose",
          color: "#98c379",
          state: "pending",
          role: "explorer",
        },
        { name: "bo", agentId: null, agentType: "general-purpose", color: "#e5c07b", state: "pending" },
      ],
    });
    for (const member of ["team-lead", "ana", "bo"])
      expect(await readFile(join(dirs.teams, "alpha", "inboxes", `${member}.json`), "utf8")).toBe("[]\n");
    expect(await readFile(join(dirs.tasks, "alpha", ".highwatermark"), "utf8")).toBe("0");
    expect(await store.list()).toEqual(["alpha"]);
    await expect(store.create({ name: "alpha" })).rejects.toThrow("Team 'alpha' already exists.");
  });

  it("upserts members without duplicating them, and deletes team and tasks", async () => {
    await store.create({ name: "beta" });
    const first = await store.upsertMember("beta", "cy", () => ({ role: "worker", state: "working" }));
    const again = await store.upsertMember("beta", "cy", () => ({ state: "idle" }));
    expect([first.created, again.created]).toEqual([true, false]);
    const config = await store.load("beta");
    expect(config.members.map((member) => [member.name, member.state, member.role])).toEqual([
      ["team-lead", undefined, undefined],
      ["cy", "idle", "worker"],
    ]);
    await board.create("beta", { subject: "x" });
    await store.delete("beta");
    expect(await store.list()).toEqual([]);
    await expect(stat(join(dirs.tasks, "beta"))).rejects.toThrow();
    await expect(store.load("beta")).rejects.toThrow("Team 'beta' not found.");
  });

  it("rejects names that would escape the teams directory", async () => {
    await expect(store.create({ name: "../etc" })).rejects.toThrow("Invalid team name");
  });
});

describe("mailbox", () => {
  it("sends direct and broadcast messages, takes unread once and formats them for injection", async () => {
    await store.create({ name: "t", members: [{ name: "a" }, { name: "b" }] });
    await mailbox.send("t", "a", { from: "team-lead", text: "hello a", color: "#e06c75" });
    const recipients = await mailbox.broadcast("t", ["team-lead", "a", "b"], { from: "a", text: "to all" });
    expect(recipients).toEqual(["team-lead", "b"]);
    expect(await mailbox.unreadCount("t", "a")).toBe(1);
    expect(await mailbox.unreadCount("t", "b")).toBe(1);
    const taken = await mailbox.takeUnread("t", "a");
    expect(formatTeammateMessages(taken)).toBe(
      '<teammate_message from="team-lead" color="#e06c75">hello a</teammate_message>',
    );
    expect(await mailbox.takeUnread("t", "a")).toEqual([]);
    expect((await mailbox.all("t", "a")).map((message) => message.read)).toEqual([true]);
  });

  it("keeps messages a reader does not accept unread", async () => {
    await store.create({ name: "t" });
    await mailbox.send("t", "team-lead", {
      from: "x",
      text: structuredText("shutdown_request", { request_id: "r1" }),
    });
    await mailbox.send("t", "team-lead", { from: "x", text: "plain" });
    const taken = await mailbox.takeUnread("t", "team-lead", (message) => !parseStructured(message.text));
    expect(taken.map((message) => message.text)).toEqual(["plain"]);
    expect(parseStructured((await mailbox.peekUnread("t", "team-lead"))[0]!.text)).toEqual({
      type: "shutdown_request",
      request_id: "r1",
    });
  });
});

describe("task board", () => {
  it("numbers tasks from the high-water mark and keeps blocks/blockedBy consistent both ways", async () => {
    await store.create({ name: "t" });
    const a = await board.create("t", { subject: "schema" });
    const b = await board.create("t", { subject: "api", blockedBy: ["1"] });
    const c = await board.create("t", { subject: "ui", blockedBy: ["1", "2"] });
    expect([a.id, b.id, c.id]).toEqual(["1", "2", "3"]);
    expect([b.status, c.status]).toEqual(["blocked", "blocked"]);
    expect((await board.get("t", "1"))!.blocks).toEqual(["2", "3"]);
    expect((await board.get("t", "2"))!.blocks).toEqual(["3"]);
    expect(await readFile(join(dirs.tasks, "t", ".highwatermark"), "utf8")).toBe("3");

    await expect(board.claim("t", "2", "bo")).rejects.toThrow("Task #2 is blocked by #1.");
    await board.claim("t", "1", "ana");
    await expect(board.claim("t", "1", "bo")).rejects.toThrow("Task #1 is already claimed by 'ana'.");
    const done = await board.update("t", "1", { status: "completed" });
    expect(done.unblocked.map((task) => task.id)).toEqual(["2"]);
    expect(await board.get("t", "2")).toMatchObject({ status: "pending", blockedBy: [] });
    expect(await board.get("t", "3")).toMatchObject({ status: "blocked", blockedBy: ["2"] });

    // Rewiring task 3 to depend on nothing removes it from task 2's `blocks`.
    await board.update("t", "3", { blockedBy: [] });
    expect((await board.get("t", "2"))!.blocks).toEqual([]);
    expect(await board.get("t", "3")).toMatchObject({ status: "pending", blockedBy: [] });
    expect((await board.list("t", { status: "pending" })).map((task) => task.id)).toEqual(["2", "3"]);
    expect((await board.list("t", { owner: "ana" })).map((task) => task.id)).toEqual(["1"]);
  });

  it("claimNext hands out each pending task once across concurrent claimers", async () => {
    await store.create({ name: "t" });
    for (let index = 0; index < 12; index += 1) await board.create("t", { subject: `job ${index}` });
    const claims = await Promise.all(
      ["a", "b", "c", "d"].map(async (member) => {
        const mine: string[] = [];
        for (;;) {
          const task = await board.claimNext("t", member);
          if (!task) return mine;
          mine.push(task.id);
        }
      }),
    );
    expect(claims.flat().sort((l, r) => Number(l) - Number(r))).toEqual(
      Array.from({ length: 12 }, (_, index) => String(index + 1)),
    );
  });
});
