import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockLlm, type Scenario, startMockLlm } from "./index.js";

let mock: MockLlm;
let anthropic: Anthropic;
let openai: OpenAI;

beforeEach(async () => {
  mock = await startMockLlm({ scenario: { rules: [] } });
  anthropic = new Anthropic({ apiKey: "test", baseURL: mock.url, maxRetries: 0, logLevel: "off" });
  openai = new OpenAI({ apiKey: "test", baseURL: `${mock.url}/v1`, maxRetries: 0, logLevel: "off" });
});

afterEach(async () => {
  await mock.close();
});

type Params = Anthropic.MessageCreateParamsNonStreaming;

async function ask(params: Partial<Params> & { content?: string } = {}): Promise<string> {
  const { content = "hi", ...rest } = params;
  const message = await anthropic.messages.create({
    model: "claude-test",
    max_tokens: 10,
    messages: [{ role: "user", content }],
    ...rest,
  });
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

const tool = (name: string) => ({ name, input_schema: { type: "object" as const } });

describe("rule matching", () => {
  it("matches on the system prompt, as a substring or a regex", async () => {
    mock.setScenario({
      rules: [
        { match: { system: "planner" }, response: { text: "plan" } },
        { match: { system: { regex: "^you are a REVIEWER", flags: "i" } }, response: { text: "review" } },
        { response: { text: "default" } },
      ],
    });
    expect(await ask({ system: "You are the planner role." })).toBe("plan");
    expect(await ask({ system: "You are a reviewer." })).toBe("review");
    expect(await ask()).toBe("default");
  });

  it("matches on the last user message, skipping tool results", async () => {
    mock.setScenario({
      rules: [
        {
          match: { lastUser: "weather", lastIsToolResult: true },
          response: { text: "summarise tool output" },
        },
        { match: { lastUser: "weather" }, response: { text: "call tool" } },
        { response: { text: "other" } },
      ],
    });
    expect(await ask({ content: "what is the weather?" })).toBe("call tool");
    expect(await ask({ content: "hello" })).toBe("other");
    const afterTool = await anthropic.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [
        { role: "user", content: "what is the weather?" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "sunny" }] },
      ],
    });
    expect(afterTool.content).toEqual([{ type: "text", text: "summarise tool output" }]);
  });

  it("matches on tools offered and not offered", async () => {
    mock.setScenario({
      rules: [
        { match: { toolsOffered: ["spawn_agent", "read_file"] }, response: { text: "orchestrator" } },
        { match: { toolsNotOffered: ["edit_file"] }, response: { text: "read-only" } },
        { response: { text: "editor" } },
      ],
    });
    expect(await ask({ tools: [tool("read_file"), tool("spawn_agent")] })).toBe("orchestrator");
    expect(await ask({ tools: [tool("read_file")] })).toBe("read-only");
    expect(await ask({ tools: [tool("edit_file")] })).toBe("editor");
  });

  it("matches on requestIndex, model, api, headers and any message text", async () => {
    mock.setScenario({
      rules: [
        { match: { requestIndex: 1 }, response: { text: "first" } },
        { match: { api: "openai-chat" }, response: { text: "openai" } },
        { match: { model: "haiku" }, response: { text: "small model" } },
        { match: { header: { "x-team": "blue" } }, response: { text: "blue team" } },
        { match: { anyMessage: { regex: "secret-\\d+" } }, response: { text: "found secret" } },
        { response: { text: "rest" } },
      ],
    });
    expect(await ask()).toBe("first");
    const chat = await openai.chat.completions.create({
      model: "gpt",
      messages: [{ role: "user", content: "x" }],
    });
    expect(chat.choices[0]?.message.content).toBe("openai");
    expect(await ask({ model: "claude-haiku-4" })).toBe("small model");
    const blue = await anthropic.messages.create(
      { model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] },
      { headers: { "X-Team": "blue" } },
    );
    expect(blue.content).toEqual([{ type: "text", text: "blue team" }]);
    expect(await ask({ content: "the code is secret-42" })).toBe("found secret");
    expect(await ask()).toBe("rest");
    expect(mock.requests.map((request) => request.rule)).toEqual([
      "rule#0",
      "rule#1",
      "rule#2",
      "rule#3",
      "rule#4",
      "rule#5",
    ]);
  });

  it("uses a rule `times` times, and response lists in turn with the last repeating", async () => {
    mock.setScenario({
      rules: [
        { name: "twice", times: 2, response: [{ text: "one" }, { text: "two" }, { text: "never" }] },
        { name: "list", response: [{ text: "a" }, { text: "b" }] },
      ],
    });
    const answers = [];
    for (let index = 0; index < 5; index++) answers.push(await ask());
    expect(answers).toEqual(["one", "two", "a", "b", "b"]);
    expect(mock.requests.map((request) => request.rule)).toEqual(["twice", "twice", "list", "list", "list"]);
    mock.reset();
    expect(mock.requests).toHaveLength(0);
    expect(await ask()).toBe("one");
    expect(mock.requests[0]?.index).toBe(1);
  });

  it("answers an unmatched request with a 500 naming it, recorded with rule undefined", async () => {
    mock.setScenario({ rules: [{ match: { lastUser: "never" }, response: { text: "x" } }] });
    const error = await ask({ content: "unexpected prompt" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    const body = (error as InstanceType<typeof Anthropic.APIError>).error as { error: { message: string } };
    expect(body.error.message).toBe(
      'mock-llm: no rule matched request #1 POST /v1/messages model=claude-test lastUser="unexpected prompt" tools=[]',
    );
    expect(mock.requests[0]?.rule).toBeUndefined();
    expect(mock.requests[0]?.status).toBe(500);
  });

  it("answers with the fallback when no rule matches", async () => {
    const scenario: Scenario = {
      rules: [{ match: { lastUser: "never" }, response: { text: "x" } }],
      fallback: { text: "fallback" },
    };
    mock.setScenario(scenario);
    expect(await ask()).toBe("fallback");
    expect(mock.requests[0]?.rule).toBe("fallback");
  });

  it("rejects an invalid scenario, naming the field", () => {
    expect(() =>
      mock.setScenario({ rules: [{ response: { finishReason: "done" } }] } as unknown as Scenario),
    ).toThrow("scenario: rules[0].response.finishReason must be one of stop, tool_calls, length");
  });
});
