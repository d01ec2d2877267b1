import type { OpenedSession } from "@nyzhi/core";
import { describe, expect, it, vi } from "vitest";
import { resumeAgent } from "./steer-agent.js";

function sessionWith(known: readonly string[]) {
  const resume = vi.fn(async (_id: string, _text: string) => ({ status: "running", nickname: "Opal" }));
  const manager = { info: (id: string) => (known.includes(id) ? { id } : undefined), resume };
  return { session: { runtime: { manager } } as unknown as OpenedSession, resume };
}

describe("resumeAgent (r in the agents panel)", () => {
  it("resumes a finished agent the session keeps", async () => {
    const { session, resume } = sessionWith(["a1"]);
    await expect(resumeAgent(session, undefined, "a1", "go on")).resolves.toBe("Resumed Opal (running).");
    expect(resume).toHaveBeenCalledWith("a1", "go on");
  });

  it("says why a finished task agent cannot be resumed, instead of 'Agent with id … not found'", async () => {
    const { session, resume } = sessionWith([]);
    await expect(resumeAgent(session, undefined, "t1", "go on")).rejects.toThrow(
      "a `task` agent ends with its task",
    );
    expect(resume).not.toHaveBeenCalled();
  });
});
