import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { forkTurns, turnStarts } from "./fork-turns.js";

const call = (id: string): ModelMessage => ({
  role: "assistant",
  content: [
    { type: "text", text: `calling ${id}` },
    { type: "tool-call", id, name: "read", input: { file_path: "a.ts" } },
  ],
});
const result = (id: string): ModelMessage => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName: "read", output: "text" }],
});

const thread: ModelMessage[] = [
  { role: "user", content: "turn 1" },
  call("c1"),
  result("c1"),
  { role: "assistant", content: "done 1" },
  { role: "user", content: "turn 2" },
  call("c2"),
  // A message queued while the tool ran: not a turn start, the call is still open.
  { role: "user", content: "queued during c2" },
  result("c2"),
  { role: "user", content: "steering after c2" },
  { role: "assistant", content: "done 2" },
  { role: "user", content: "turn 3" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "spawning" },
      { type: "tool-call", id: "spawn", name: "spawn_agent", input: {} },
    ],
  },
];

describe("forkTurns", () => {
  it("finds turn starts only where no tool call is open", () => {
    expect(turnStarts(thread)).toEqual([0, 4, 8, 10]);
  });

  it("copies the last n turns and drops the parent's unanswered call", () => {
    expect(forkTurns(thread, 1)).toEqual([
      { role: "user", content: "turn 3" },
      { role: "assistant", content: [{ type: "text", text: "spawning" }] },
    ]);
    expect(forkTurns(thread, 2)).toEqual(
      thread.slice(8, 11).concat([{ role: "assistant", content: [{ type: "text", text: "spawning" }] }]),
    );
  });

  it("never splits a tool call from its result", () => {
    const forked = forkTurns(thread, 3);
    expect(forked[0]).toEqual({ role: "user", content: "turn 2" });
    expect(forked.slice(1, 4)).toEqual([
      call("c2"),
      { role: "user", content: "queued during c2" },
      result("c2"),
    ]);
  });

  it("copies everything for 'all' or a large n, nothing for 0", () => {
    const whole = thread
      .slice(0, -1)
      .concat([{ role: "assistant", content: [{ type: "text", text: "spawning" }] }]);
    expect(forkTurns(thread, "all")).toEqual(whole);
    expect(forkTurns(thread, 99)).toEqual(whole);
    expect(forkTurns(thread, 0)).toEqual([]);
    expect(forkTurns([], "all")).toEqual([]);
  });

  it("drops an assistant message left with nothing but the unanswered call", () => {
    const onlyCall: ModelMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool-call", id: "s", name: "spawn_agent", input: {} }] },
    ];
    expect(forkTurns(onlyCall, 1)).toEqual([{ role: "user", content: "go" }]);
  });

  it("returns a deep copy", () => {
    const forked = forkTurns(thread, "all");
    const first = forked[1]!;
    if (first.role !== "assistant" || typeof first.content === "string") throw new Error("unexpected");
    (first.content[1] as { input: Record<string, unknown> }).input.file_path = "changed";
    expect(thread[1]).toEqual(call("c1"));
  });
});
