import { mkdir, mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../events/agent-events.js";
import { openSession } from "./open-session.js";
import { ImageInputError } from "./prepare-message.js";
import type { OpenedSession } from "./session-handle.js";

let mock: MockLlm | undefined;
let session: OpenedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  await mock?.close();
  mock = undefined;
});

const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function setup(scenario: Scenario, config = "") {
  mock = await startMockLlm({ scenario });
  const root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-session-input-")));
  const workspace = join(root, "project");
  await mkdir(join(workspace, ".git"), { recursive: true });
  await mkdir(join(root, "home", "config"), { recursive: true });
  await writeFile(join(root, "home", "config", "config.toml"), config);
  const env = {
    NYZHI_HOME: join(root, "home"),
    HOME: root,
    NYZHI_PROVIDER: "anthropic",
    NYZHI_TRUST: "full",
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
    NYZHI_LOG: "silent",
  };
  return { workspace, env };
}

async function drain<Result>(
  turn: AsyncGenerator<AgentEvent, Result>,
): Promise<{ events: AgentEvent[]; result: Result }> {
  const events: AgentEvent[] = [];
  for (;;) {
    const next = await turn.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

describe("the session's input verbs", () => {
  it("prepareMessage puts @file content in a <context> part before the text, refusing a denied .env", async () => {
    const { workspace, env } = await setup(
      { rules: [{ response: { text: "ok" } }] },
      '[agent.trust]\ndeny_paths = [".env"]\n',
    );
    await writeFile(join(workspace, "notes.txt"), "alpha\nbeta\n");
    await writeFile(join(workspace, ".env"), "TOKEN=hunter2\n");
    session = await openSession({ cwd: workspace, env });
    const prepared = await session.prepareMessage("sum up @notes.txt and @.env");
    expect(prepared.attachments).toEqual([
      { kind: "file", path: "notes.txt", lines: 2, bytes: 11, truncated: false },
    ]);
    expect(prepared.refused).toEqual([{ path: ".env", reason: expect.stringContaining("deny_paths") }]);
    expect(prepared.input).toEqual([
      {
        type: "text",
        text: '<context>\n<file path="notes.txt" lines="2">\nalpha\nbeta\n</file>\n</context>',
      },
      { type: "text", text: "sum up @notes.txt and @.env" },
    ]);
    await drain(session.runTurn(prepared.input));
    const sent = JSON.stringify(mock!.requests.at(-1)!.body);
    expect(sent).toContain("alpha\\nbeta");
    expect(sent).not.toContain("hunter2");
  });

  it("images go first; a model without image input refuses them before sending", async () => {
    const { workspace, env } = await setup({ rules: [{ response: { text: "ok" } }] });
    await writeFile(join(workspace, "shot.png"), PIXEL);
    session = await openSession({ cwd: workspace, env });
    expect(session.acceptsImages()).toBe(true);
    const prepared = await session.prepareMessage("what is @shot.png", {
      images: [{ path: join(workspace, "shot.png") }],
    });
    expect(prepared.attachments.map((attachment) => attachment.kind)).toEqual(["image", "image"]);
    expect(Array.isArray(prepared.input) && prepared.input.map((part) => part.type)).toEqual([
      "image",
      "image",
      "text",
    ]);
    await session.setModel("anthropic/deepseek-chat");
    expect(session.acceptsImages()).toBe(false);
    await expect(session.prepareMessage("@shot.png")).rejects.toBeInstanceOf(ImageInputError);
    expect(mock!.requests).toHaveLength(0);
  });

  it("shell runs a line under the bash tool's rules and the next request holds command and output", async () => {
    const { workspace, env } = await setup({ rules: [{ response: { text: "seen" } }] });
    session = await openSession({ cwd: workspace, env });
    const { events, result } = await drain(session.shell("echo shell-said-$((40+2))"));
    expect(result).toMatchObject({ command: "echo shell-said-$((40+2))", isError: false, refused: false });
    expect(result.output).toContain("shell-said-42");
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["tool-start", "tool-end"]));
    await drain(session.runTurn("what did it print?"));
    // Anthropic's adapter sends consecutive user messages as one: the shell line, then the question.
    const users = mock!.requests.at(-1)!.messages.filter((message) => message.role === "user");
    const text = users.map((message) => message.text).join("\n");
    expect(text).toContain("echo shell-said-$((40+2))");
    expect(text.indexOf("shell-said-42")).toBeLessThan(text.indexOf("what did it print?"));
  });

  it("rewind drops the later turns and undoes their file changes", async () => {
    const { workspace, env } = await setup({
      rules: [
        {
          match: { lastUser: "write it", lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "write", arguments: { file_path: "a.txt", content: "changed\n" } }],
          },
        },
        { response: { text: "done" } },
      ],
    });
    await writeFile(join(workspace, "a.txt"), "original\n");
    session = await openSession({ cwd: workspace, env });
    await drain(session.runTurn("first question"));
    await drain(session.runTurn("write it"));
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("changed\n");
    const prompts = session.prompts();
    expect(prompts.map((prompt) => prompt.text)).toEqual(["first question", "write it"]);
    const plan = session.planRewind(prompts[1]!.index);
    expect(plan).toMatchObject({
      laterPrompts: 0,
      files: [{ path: join(workspace, "a.txt"), action: "restore" }],
    });
    const rewound = await session.rewind(prompts[1]!.index);
    expect(rewound.text).toBe("write it");
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("original\n");
    expect(session.record.messages).toHaveLength(2);
    expect(session.prompts().map((prompt) => prompt.text)).toEqual(["first question"]);
  });
});
