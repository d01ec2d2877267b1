import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Mailbox } from "./mailbox.js";
import { TaskBoard } from "./task-board.js";
import { readTeamSnapshot, type TeamSource } from "./team-snapshot.js";
import { TeamStore } from "./team-store.js";
import type { TeamDirs } from "./team-types.js";

describe("readTeamSnapshot", () => {
  let root: string;
  let store: TeamStore;
  let mailbox: Mailbox;
  let board: TaskBoard;
  let running: ReturnType<TeamSource["teammates"]>;
  let source: TeamSource;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "nyzhi-team-snapshot-"));
    const dirs: TeamDirs = { teams: join(root, "teams"), tasks: join(root, "tasks") };
    store = new TeamStore(dirs);
    mailbox = new Mailbox(dirs);
    board = new TaskBoard(dirs);
    running = [];
    source = { teammates: () => running, store, mailbox, board };
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("reads members with their state and unread mail, and counts the board open / claimed / done", async () => {
    await store.create({ name: "alpha", members: [{ name: "bob", role: "reviewer" }, { name: "ann" }] });
    await mailbox.send("alpha", "bob", { from: "team-lead", text: "review a.ts" });
    await mailbox.send("alpha", "bob", { from: "ann", text: "and b.ts" });
    await mailbox.send("alpha", "team-lead", { from: "bob", text: "done" });
    await mailbox.send("alpha", "ann", { from: "bob", text: "read already" });
    await mailbox.takeUnread("alpha", "ann");
    for (const subject of ["one", "two", "three", "four", "five"]) await board.create("alpha", { subject });
    await board.claim("alpha", "1", "bob");
    await board.claim("alpha", "2", "ann");
    await board.update("alpha", "2", { status: "completed" });
    await board.update("alpha", "3", { status: "deleted" });
    running.push({ team: "alpha", name: "bob", state: "working", agentId: "bob-id" });

    expect(await readTeamSnapshot(source)).toEqual({
      teams: [
        {
          name: "alpha",
          leadUnread: 1,
          board: { open: 2, claimed: 1, done: 1 },
          members: [
            { name: "bob", agentId: "bob-id", role: "reviewer", state: "working", unread: 2 },
            { name: "ann", agentId: undefined, role: undefined, state: "pending", unread: 0 },
          ],
        },
      ],
    });
  });

  it("reads the teams it is told of even with no teammate running, and leaves out missing ones", async () => {
    await store.create({ name: "beta", leadName: "boss" });
    const snapshot = await readTeamSnapshot(source, { teams: ["beta", "gone"] });
    expect(snapshot).toEqual({
      teams: [{ name: "beta", leadUnread: 0, board: { open: 0, claimed: 0, done: 0 }, members: [] }],
    });
  });
});
