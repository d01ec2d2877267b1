import { afterEach, describe, expect, it } from "vitest";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
} from "../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const NOT_LEAD = { regex: "^(?!You are Nizzy)" };

describe("subagents spawned in plan mode", () => {
  it("are offered no mutating tool, plan too, and a write they force is refused", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "spawn_agent", arguments: { agent_type: "worker", message: "look" } }],
          },
        },
        {
          match: { system: NOT_LEAD, lastIsToolResult: false },
          response: { toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x" } }] },
        },
        { match: { system: NOT_LEAD, lastIsToolResult: true }, response: { text: "child plan" } },
        {
          match: { system: LEAD_MARK, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD_MARK }, response: { text: "done" } },
      ],
    });
    harness.runtime.context.planMode = true;
    await harness.turn("plan it");
    const child = harness.mock.requests.filter((request) => !request.system?.startsWith("You are Nizzy"));
    expect(child.length).toBeGreaterThan(0);
    for (const request of child) {
      expect(request.toolsOffered).toContain("read");
      expect(request.toolsOffered).not.toContain("write");
      expect(request.toolsOffered).not.toContain("bash");
      expect(request.system).toContain("PLAN MODE (READ-ONLY)");
    }
    const results = child.at(-1)!.messages.flatMap((message) => message.toolResults ?? []);
    expect(results[0]?.content).toContain("blocked in plan mode");
  });
});
