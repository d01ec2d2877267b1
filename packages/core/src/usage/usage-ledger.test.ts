import { emptyUsage, type Usage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { UsageLedger } from "./usage-ledger.js";

function tokens(input: number, output = 0): Usage {
  return { ...emptyUsage(), inputTokens: input, outputTokens: output };
}

describe("UsageLedger subtree totals", () => {
  it("counts a grandchild's step in its parent's and grandparent's subtree totals", () => {
    const ledger = new UsageLedger();
    ledger.setParent("opal", "lead");
    ledger.setParent("quartz", "opal");
    ledger.record("lead", tokens(1_000), 0.1);
    ledger.record("opal", tokens(200), 0.02);
    ledger.record("quartz", tokens(30, 5), 0.003);

    expect(ledger.agentTotal("opal").usage.inputTokens).toBe(200);
    expect(ledger.subtreeTotal("quartz").subtree.usage).toMatchObject({ inputTokens: 30, outputTokens: 5 });
    expect(ledger.subtreeTotal("opal").subtree.usage).toMatchObject({ inputTokens: 230, outputTokens: 5 });
    expect(ledger.subtreeTotal("opal").subtree.costUsd).toBeCloseTo(0.023);
    expect(ledger.subtreeTotal("lead").subtree.usage.inputTokens).toBe(1_230);
    // The lead's descendants: what its subagents spent, its own requests not included.
    expect(ledger.subtreeTotal("lead").descendants.usage.inputTokens).toBe(230);
    expect(ledger.subtreeTotal("lead").descendants.costUsd).toBeCloseTo(0.023);

    // The chain a `usage` event carries: the agent first, the lead last.
    const chain = ledger.subtreeChain("quartz");
    expect(chain.map((entry) => entry.agentId)).toEqual(["quartz", "opal", "lead"]);
    expect(chain.map((entry) => entry.subtree.usage.inputTokens)).toEqual([30, 230, 1_230]);
  });

  it("survives a parent cycle and an agent it never heard of", () => {
    const ledger = new UsageLedger();
    ledger.setParent("a", "b");
    ledger.setParent("b", "a");
    ledger.record("a", tokens(10), 0);
    expect(ledger.subtreeTotal("b").subtree.usage.inputTokens).toBe(10);
    expect(ledger.subtreeTotal("nobody").subtree.usage.inputTokens).toBe(0);
    expect(ledger.subtreeChain("a").map((entry) => entry.agentId)).toEqual(["a", "b"]);
  });
});
