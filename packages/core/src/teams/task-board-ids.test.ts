import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveDirs } from "@nyzhi/config";
import { describe, expect, it } from "vitest";
import { TaskBoard } from "./task-board.js";
import { teamPaths } from "./team-types.js";

describe("task ids", () => {
  it("never reuse an existing task's id when the high-water mark is lost or emptied", async () => {
    const dirs = resolveDirs({ NYZHI_HOME: await mkdtemp(join(tmpdir(), "nyzhi-ids-")) });
    const board = new TaskBoard(dirs);
    const first = await board.create("crew", { subject: "task A" });
    await board.create("crew", { subject: "task B" });
    await writeFile(teamPaths(dirs, "crew").highWaterMark, "");
    const third = await board.create("crew", { subject: "task C" });
    expect(third.id).toBe("3");
    expect((await board.get("crew", first.id))?.subject).toBe("task A");
  });
});
