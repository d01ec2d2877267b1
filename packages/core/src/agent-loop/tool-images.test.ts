import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "@nyzhi/config";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { defineTool } from "../tools/seam/define-tool.js";
import { mockLanguageModel } from "./testing/mock-language-model.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const snapshot = defineTool({
  name: "snapshot",
  description: "Returns a picture (as MCP tools can).",
  inputSchema: z.object({}),
  kind: "read",
  mutates: false,
  async execute() {
    return {
      output: "[image: image/png]",
      metadata: { images: [{ type: "image", mediaType: "image/png", data: PIXEL }] },
    };
  },
});

async function runWith(providerId: "anthropic" | "openai") {
  mock = await startMockLlm({
    scenario: {
      rules: [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "snapshot", arguments: {} }] },
        },
        { response: { text: "I see one pixel." } },
      ],
    },
  });
  const config = defaultConfig();
  config.agent.trust.mode = "full";
  config.agent.agents.enabled = false;
  const model = mockLanguageModel(mock, {
    providerId,
    modelId: providerId === "anthropic" ? "claude-sonnet-4-6-20260217" : "gpt-4.1",
  });
  const cwd = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-images-")));
  const runtime = createAgentRuntime({ config, model, cwd, tools: [snapshot] });
  for await (const event of runtime.runTurn("take a snapshot")) void event;
  return JSON.stringify(mock.requests[1]!.body);
}

describe("images returned by tools reach the model", () => {
  it("inside the tool_result for Anthropic", async () => {
    const body = JSON.parse(await runWith("anthropic")) as { messages: { role: string; content: unknown }[] };
    const result = (body.messages.at(-1)!.content as { type: string; content: unknown }[]).find(
      (block) => block.type === "tool_result",
    );
    expect(result?.content).toEqual([
      { type: "text", text: "[image: image/png]" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } },
    ]);
  });

  it("in a user message after the tool results for OpenAI Chat", async () => {
    const body = JSON.parse(await runWith("openai")) as { messages: { role: string; content: unknown }[] };
    const roles = body.messages.map((message) => message.role);
    expect(roles.slice(-2)).toEqual(["tool", "user"]);
    expect(JSON.stringify(body.messages.at(-1)!.content)).toContain(`data:image/png;base64,${PIXEL}`);
  });
});
