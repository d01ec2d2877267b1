import { forgetKnownSecrets, registerSecret } from "@nyzhi/config";
import type { Usage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { exportSessionJson, exportSessionMarkdown } from "./export-session.js";
import type { SavedAgentThread, SessionRecord } from "./session-types.js";

const usage = (inputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

function agent(fields: Partial<SavedAgentThread> & { agentId: string }): SavedAgentThread {
  return {
    nickname: "Scout",
    role: "explorer",
    depth: 1,
    parentId: "lead",
    status: "completed: mapped",
    model: "claude-sonnet-4-6-20260217",
    messages: [{ role: "user", content: "map it" }],
    ...fields,
  };
}

const record = (agents: Record<string, SavedAgentThread>): SessionRecord => ({
  meta: {
    id: "s1",
    title: "map",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    messageCount: 1,
    provider: "anthropic",
    model: "claude-sonnet-4-6-20260217",
  },
  messages: [{ role: "user", content: "map the code" }],
  agents,
});

describe("exporting a session's subagents", () => {
  it("puts each subagent's tokens and cost under its heading, and its subtree's when it differs", () => {
    const markdown = exportSessionMarkdown(
      record({
        a: agent({
          agentId: "a",
          usage: usage(1200, 300),
          costUsd: 0.0081,
          subtreeUsage: usage(1200, 300),
          subtreeCostUsd: 0.0081,
        }),
        b: agent({
          agentId: "b",
          nickname: "Atlas",
          role: "worker",
          usage: usage(100, 10),
          costUsd: 0.00042,
          subtreeUsage: usage(2100, 210),
          subtreeCostUsd: 0.00942,
        }),
      }),
    );
    expect(markdown).toContain(
      "# Subagent Scout (explorer, depth 1, completed: mapped)\n\ntokens: 1200 input / 300 output, cost: $0.0081\n\n### You",
    );
    expect(markdown).toContain(
      "# Subagent Atlas (worker, depth 1, completed: mapped)\n\ntokens: 100 input / 10 output, cost: $0.0004 (with its subagents: 2100 input / 210 output, cost: $0.0094)\n\n### You",
    );
  });

  it("keeps the usage fields in the JSON export", () => {
    const saved = agent({
      agentId: "a",
      usage: usage(1200, 300),
      costUsd: 0.0081,
      subtreeUsage: usage(1200, 300),
      subtreeCostUsd: 0.0081,
    });
    const exported = JSON.parse(exportSessionJson(record({ a: saved }))) as SessionRecord;
    expect(exported.agents?.a).toEqual(saved);
  });
});

describe("exporting a session whose code index used a remote embedder", () => {
  it("names the embedding tokens in the front matter, beside the model's tokens and the whole cost", () => {
    const spent = record({});
    spent.meta = { ...spent.meta, usage: usage(1200, 300), embeddingTokens: 5400, costUsd: 0.0082 };
    expect(exportSessionMarkdown(spent)).toContain(
      "tokens: 1200 input / 300 output\nembedding tokens: 5400\ncost: $0.0082\n---",
    );
    expect(exportSessionMarkdown(record({}))).not.toContain("embedding tokens");
  });
});

describe("exporting a session that holds a credential", () => {
  it("redacts every registered secret in both formats", () => {
    const key = "sk-ant-EXPORT-PLANTED-5555";
    registerSecret(key);
    try {
      const leaky = record({});
      leaky.messages = [{ role: "user", content: `the key is ${key}` }];
      for (const text of [exportSessionMarkdown(leaky), exportSessionJson(leaky)]) {
        expect(text).not.toContain(key);
        expect(text).toContain("the key is [redacted]");
      }
    } finally {
      forgetKnownSecrets();
    }
  });
});
