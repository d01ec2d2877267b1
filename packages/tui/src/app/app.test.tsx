import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentTag, MissingCredentialError, openCredentialStore, TEAM_WAKE_PROMPT } from "@nyzhi/core";
import { describe, expect, it, vi } from "vitest";
import {
  aborted,
  answering,
  fakeSession,
  LEAD,
  turnEnd,
  until,
  usage,
} from "../test-support/fake-session.js";
import { KEYS, press, settle } from "../test-support/keys.js";
import { renderApp } from "../test-support/render-app.js";
import { settleWithin } from "./use-session.js";

const setup = renderApp;

describe("App", () => {
  it("sends a typed prompt as a turn and shows the streamed answer", async () => {
    const { session, calls } = fakeSession(answering("Hello", " from the", " mock"));
    const view = setup(session);
    await press(view.stdin, "hi there", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Hello from the mock"));
    expect(calls.turns).toEqual([[{ type: "text", text: "hi there" }]]);
    expect(view.lastFrame()).toContain("hi there");
    expect(view.lastFrame()).toContain("test-model");
  });

  it("takes text and Enter arriving in one read as the prompt and its Enter", async () => {
    const { session, calls } = fakeSession(answering("ok"));
    const view = setup(session);
    await settle();
    view.stdin.write("typed fast\r");
    await until(() => calls.turns.length === 1);
    expect(calls.turns[0]).toEqual([{ type: "text", text: "typed fast" }]);
  });

  it("sends a 200-line paste to the model whole, and shows it in the transcript as its chip", async () => {
    const { session, calls } = fakeSession(answering("ok"));
    const view = setup(session);
    await settle();
    const pasted = Array.from({ length: 200 }, (_, index) => `pasted row ${index}`).join("\n");
    await press(view.stdin, "explain ", `\u001b[200~${pasted}\u001b[201~`, KEYS.enter);
    await until(() => view.lastFrame()!.includes("ok"));
    expect(calls.turns).toEqual([[{ type: "text", text: `explain ${pasted}` }]]);
    const shown = view.frames.join("");
    expect(shown).toContain("explain [pasted 200 lines]");
    expect(shown).not.toContain("pasted row 150");
  });

  it("sends the initial prompt once the session is open", async () => {
    const { session, calls } = fakeSession(answering("ok"));
    const view = setup(session, { initialPrompt: "fix the bug" });
    await until(() => calls.turns.length === 1);
    expect(calls.turns[0]).toEqual([{ type: "text", text: "fix the bug" }]);
    await until(() => view.lastFrame()!.includes("ok"));
  });

  it("shows the saved transcript of a resumed session", async () => {
    const { session } = fakeSession(answering(), {
      messages: [
        { role: "user", content: "what is in a.txt?" },
        {
          role: "assistant",
          content: [{ type: "tool-call", id: "c1", name: "read", input: { file_path: "a.txt" } }],
        },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: "hello" }],
        },
        { role: "assistant", content: [{ type: "text", text: "It says hello." }] },
      ],
    });
    const view = setup(session);
    await until(() => view.frames.join("").includes("It says hello."));
    const all = view.frames.join("");
    expect(all).toContain("what is in a.txt?");
    expect(all).toContain("a.txt");
  });

  it("says why the session could not open and exits 1", async () => {
    const view = setup(async () => {
      throw new Error("No sessions to continue in /work/project.");
    });
    await until(() => view.onExit.mock.calls.length === 1);
    expect(view.onExit).toHaveBeenCalledWith(1);
    expect(view.frames.join("")).toContain("No sessions to continue in /work/project.");
  });

  it("with no credentials opens anyway, says what is missing, and /login takes a masked key, saves it and opens", async () => {
    const home = await mkdtemp(join(tmpdir(), "nyzhi-tui-login-"));
    const env = { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file" };
    const { session, calls } = fakeSession(answering("hello"));
    let opens = 0;
    const view = setup(
      async () => {
        opens += 1;
        if (opens === 1)
          throw new MissingCredentialError(
            "anthropic",
            "ANTHROPIC_API_KEY",
            "No credentials found for provider 'anthropic'.",
          );
        return session;
      },
      { env },
    );
    await until(() => view.lastFrame()!.includes("Type /login to log in to anthropic here"));
    expect(view.onExit).not.toHaveBeenCalled();
    // Anthropic offers a browser login too: the picker offers both; "paste" picks the key.
    await press(view.stdin, "/login", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Log in with the browser (OAuth)"));
    await press(view.stdin, "paste", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Paste the API key for anthropic"));
    await press(view.stdin, "sk-ant-secret-0123456789");
    expect(view.lastFrame()).not.toContain("sk-ant-secret");
    expect(view.lastFrame()).toContain("•".repeat(24));
    await press(view.stdin, KEYS.enter);
    await until(() => opens === 2);
    await until(() => view.lastFrame()!.includes("Saved the API key for anthropic"));
    const { store } = await openCredentialStore({ env });
    expect(JSON.stringify(await store.listAccounts("anthropic"))).toContain("default");
    await press(view.stdin, "hi", KEYS.enter);
    await until(() => calls.turns.length === 1);
  });

  it("says an unknown /command is unknown and sends nothing to the model", async () => {
    const { session, calls } = fakeSession(answering("x"));
    const view = setup(session);
    await press(view.stdin, "/xyz now", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Unknown command /xyz"));
    expect(calls.turns).toEqual([]);
  });

  it("expands a custom command through the session and sends its prompt", async () => {
    const { session, calls } = fakeSession(answering("done"));
    const view = setup(session);
    await press(view.stdin, "/review src", KEYS.enter);
    await until(() => calls.turns.length === 1);
    expect(calls.turns[0]).toEqual([{ type: "text", text: "Review this code" }]);
    await until(() => view.lastFrame()!.includes("done"));
  });
});

describe("App while the session opens", () => {
  it("keeps commands typed before the session is open and runs them once it is (nothing refused)", async () => {
    const { session, calls } = fakeSession(answering("reviewed"));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const view = setup(async () => {
      await gate;
      return session;
    });
    await press(view.stdin, "/permissions", KEYS.enter);
    await until(() => view.lastFrame()!.includes("/permissions runs once the session is open"));
    await press(view.stdin, "/review src", KEYS.enter);
    await settle();
    expect(calls.turns).toHaveLength(0);
    expect(view.lastFrame()).not.toContain("still opening");
    release();
    await until(() => calls.turns.length === 1);
    expect(calls.turns[0]).toEqual([{ type: "text", text: "Review this code" }]);
    await until(() => view.lastFrame()!.includes("reviewed"));
    await until(() => view.lastFrame()!.includes("Permissions in force:"));
  });
});

describe("App approvals", () => {
  let next = 0;
  /** Core asks: an `approval-requested` event with its id, as the session emits it. */
  const ask = (
    view: ReturnType<typeof setup>,
    request: { tool: string; input: unknown; preview?: string | undefined; agent: AgentTag },
  ): string => {
    const id = `approval-${++next}`;
    view.bridge.emit({
      type: "approval-requested",
      id,
      callId: `call-${next}`,
      tool: request.tool,
      input: request.input,
      preview: request.preview ?? "",
      agent: request.agent,
    });
    return id;
  };
  const editPrompt = (path: string) => ({
    tool: "edit",
    input: { file_path: path, old_string: "a = 1", new_string: "a = 2" },
    preview: undefined,
    agent: LEAD,
  });
  const bashPrompt = (command: string, agent: AgentTag = LEAD) => ({
    tool: "bash",
    input: { command },
    preview: command,
    agent,
  });

  it("shows who asks and the diff; y allows once, n denies with the typed reason, answered through the session", async () => {
    const { session, calls } = fakeSession(answering());
    const view = setup(session);
    await until(() => view.lastFrame()!.includes("test-model"));
    const first = ask(view, editPrompt("src/a.ts"));
    await until(() => view.lastFrame()!.includes("lead wants to use edit"));
    expect(view.lastFrame()).toContain("1 + a = 2");
    await press(view.stdin, "y");
    await until(() => calls.answers.length === 1);
    expect(calls.answers[0]).toEqual({ id: first, reply: "allow" });
    const second = ask(view, editPrompt("src/a.ts"));
    await until(() => view.lastFrame()!.includes("wants to use edit"));
    await press(view.stdin, "n", "use b instead", KEYS.enter);
    await until(() => calls.answers.length === 2);
    expect(calls.answers[1]).toEqual({ id: second, reply: { deny: "use b instead" } });
  });

  it("queues requests in order and names a subagent that asks", async () => {
    const { session, calls } = fakeSession(answering());
    const view = setup(session);
    await until(() => view.lastFrame()!.includes("test-model"));
    const scout = { agentId: "c1", depth: 1, nickname: "scout", role: "explorer" };
    const lead = ask(view, bashPrompt("npm test"));
    const child = ask(view, bashPrompt("ls -la", scout));
    await until(() => view.lastFrame()!.includes("1 of 2"));
    expect(view.lastFrame()).toContain("lead wants to use bash");
    await press(view.stdin, "y");
    await until(() => view.lastFrame()!.includes("scout (explorer) · depth 1 wants to use bash"));
    await press(view.stdin, "n", KEYS.enter);
    await until(() => calls.answers.length === 2);
    expect(calls.answers).toEqual([
      { id: lead, reply: "allow" },
      { id: child, reply: "deny" },
    ]);
  });

  it("a answers allow-always; core's resolution of a covered request closes it, and its notice is shown", async () => {
    const { session, calls } = fakeSession(answering());
    const view = setup(session);
    await until(() => view.lastFrame()!.includes("test-model"));
    const first = ask(view, bashPrompt("npm test"));
    ask(view, bashPrompt("npm test -- --watch=false"));
    await until(() => view.lastFrame()!.includes("1 of 2"));
    await press(view.stdin, "a");
    await until(() => calls.answers.length === 1);
    expect(calls.answers[0]).toEqual({ id: first, reply: "allow-always" });
    // Core answered the covered one: its approval-resolved and notice arrive as events.
    view.bridge.emit({
      type: "approval-resolved",
      agent: LEAD,
      callId: `call-${next}`,
      tool: "bash",
      approved: true,
      reason: "approved by the user for the rest of the session",
    });
    view.bridge.emit({
      type: "notice",
      agent: LEAD,
      source: "permissions",
      message: "Allowed for this session: bash `npm test …`",
    });
    await until(() => view.lastFrame()!.includes("Allowed for this session: bash `npm test …`"));
    expect(view.lastFrame()).not.toContain("wants to use bash");
    expect(calls.answers).toHaveLength(1);
  });
});

describe("App approvals while typing", () => {
  const write = (agent: AgentTag = { agentId: "c1", depth: 1, nickname: "scout", role: "worker" }) =>
    ({
      type: "approval-requested",
      id: "approval-w",
      callId: "w1",
      tool: "write",
      input: { file_path: "notes.txt", content: "x" },
      preview: "",
      agent,
    }) as const;

  it("a dialog that opens while the person types waits: no key answers it, every key reaches the input", async () => {
    const { session, calls } = fakeSession(answering("ok"));
    const view = setup(session);
    await press(view.stdin, "y", "e", "s");
    view.bridge.emit(write());
    await until(() => view.lastFrame()!.includes("scout (worker) · depth 1 wants to use write"));
    await press(view.stdin, " ", "a", "n", "d", " ", "n", "a", "y", KEYS.enter, "y", "a", "n");
    expect(view.lastFrame()).toContain("You were typing, so your keys stay in the input. ctrl+g");
    await until(() => calls.turns.length === 1);
    expect(calls.turns[0]).toEqual([{ type: "text", text: "yes and nay" }]);
    expect(view.lastFrame()).toContain("› yan");
    expect(calls.answers).toEqual([]);
    // The answer key gives the dialog the keyboard.
    await press(view.stdin, "\u0007", "y");
    await until(() => calls.answers.length === 1);
    expect(calls.answers[0]).toEqual({ id: "approval-w", reply: "allow" });
  });

  it("text typed at an open dialog that is none of its keys goes to the input (a /command runs)", async () => {
    const { session, calls } = fakeSession(answering());
    const view = setup(session);
    view.bridge.emit(write());
    await until(() => view.lastFrame()!.includes("wants to use write"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await press(view.stdin, "/", "h", "e", "l", "p", KEYS.enter);
    await until(() => view.frames.join("").includes("/exit"));
    expect(calls.answers).toEqual([]);
    expect(view.lastFrame()).toContain("wants to use write");
  });
});

describe("App turn control", () => {
  it("Esc interrupts the running turn and closes the lead's subagents within 200 ms", async () => {
    let abortedAt = 0;
    const { session, calls } = fakeSession(async function* (_input, signal) {
      yield { type: "turn-start", agent: LEAD, turnId: "t", input: "" };
      yield { type: "step-start", agent: LEAD, step: 1 };
      yield { type: "text-delta", agent: LEAD, delta: "Working on it" };
      await aborted(signal);
      abortedAt = performance.now();
      yield turnEnd("aborted");
      return { reason: "aborted", steps: 1, text: "", usage, costUsd: 0 };
    });
    const view = setup(session);
    await press(view.stdin, "go", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Working on it"));
    expect(view.lastFrame()).toContain("esc interrupt");
    const sentAt = performance.now();
    view.stdin.write(KEYS.escape);
    await until(() => abortedAt > 0);
    expect(abortedAt - sentAt).toBeLessThan(200);
    expect(calls.closedAgents).toEqual(["child-1"]);
    await until(() => view.lastFrame()!.includes("enter send"));
  });

  it("queues a prompt typed during a turn, shows it, and marks it delivered", async () => {
    let release: () => void = () => undefined;
    const { session, calls } = fakeSession(async function* () {
      yield { type: "turn-start", agent: LEAD, turnId: "t", input: "" };
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      yield turnEnd();
      return { reason: "completed", steps: 1, text: "", usage, costUsd: 0 };
    });
    const view = setup(session);
    await press(view.stdin, "first", KEYS.enter);
    await until(() => calls.turns.length === 1);
    await press(view.stdin, "also do this", KEYS.enter);
    expect(calls.queued).toEqual(["also do this"]);
    await until(() => view.lastFrame()!.includes("queued: also do this"));
    view.bridge.emit({ type: "queued-delivered", agent: LEAD, texts: ["also do this"] });
    await until(() => !view.lastFrame()!.includes("queued: also do this"));
    expect(view.lastFrame()).toContain("also do this");
    release();
  });

  it("sends what the turn did not receive as the next turn", async () => {
    let release: () => void = () => undefined;
    let count = 0;
    const { session, calls, queue } = fakeSession(async function* () {
      count += 1;
      if (count === 1)
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      yield turnEnd();
      return { reason: "completed", steps: 1, text: "", usage, costUsd: 0 };
    });
    const view = setup(session);
    await press(view.stdin, "first", KEYS.enter);
    await until(() => calls.turns.length === 1);
    await press(view.stdin, "second", KEYS.enter);
    expect(queue).toEqual(["second"]);
    release();
    await until(() => calls.turns.length === 2);
    expect(calls.turns[1]).toEqual([{ type: "text", text: "second" }]);
  });

  it("Ctrl+C clears the input; twice quits after closing the session", async () => {
    const { session, calls } = fakeSession(answering());
    const view = setup(session);
    await press(view.stdin, "draft text");
    expect(view.lastFrame()).toContain("draft text");
    await press(view.stdin, "\x03");
    expect(view.lastFrame()).not.toContain("draft text");
    expect(view.lastFrame()).toContain("Press Ctrl+C again to quit");
    expect(view.onExit).not.toHaveBeenCalled();
    await press(view.stdin, "\x03");
    await until(() => view.onExit.mock.calls.length === 1);
    expect(view.onExit).toHaveBeenCalledWith(0);
    expect(calls.closed).toBe(1);
  });

  const untilAborted = () => {
    const state = { aborted: false };
    const { session, calls } = fakeSession(async function* (_input, signal) {
      yield { type: "turn-start", agent: LEAD, turnId: "t", input: "" };
      yield { type: "text-delta", agent: LEAD, delta: "Working on it" };
      await aborted(signal);
      state.aborted = true;
      yield turnEnd("aborted");
      return { reason: "aborted", steps: 1, text: "", usage, costUsd: 0 };
    });
    return { session, calls, state };
  };

  it("the first Ctrl+C of a streaming answer interrupts it; the next one, at the idle prompt, quits", async () => {
    const { session, state } = untilAborted();
    const view = setup(session);
    await press(view.stdin, "go", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Working on it"));
    await press(view.stdin, "\x03");
    await until(() => state.aborted);
    await until(() => view.lastFrame()!.includes("enter send"));
    expect(view.onExit).not.toHaveBeenCalled();
    await press(view.stdin, "\x03");
    await until(() => view.onExit.mock.calls.length === 1);
  });

  it("Esc after queuing a message does not send it: it goes back to the input, and the screen says so", async () => {
    const { session, calls, state } = untilAborted();
    const view = setup(session);
    await press(view.stdin, "first", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Working on it"));
    await press(view.stdin, "and then this", KEYS.enter);
    await until(() => view.lastFrame()!.includes("queued: and then this"));
    await press(view.stdin, KEYS.escape);
    await until(() => state.aborted);
    await until(() => view.lastFrame()!.includes("it is back in the input"));
    await settle();
    expect(calls.turns).toHaveLength(1);
    expect(view.lastFrame()).toContain("› and then this");
    expect(view.lastFrame()).not.toContain("queued: and then this");
  });

  it("shows a working line with the time since Enter before the model says anything", async () => {
    const { session, state } = untilAborted();
    const view = setup(session);
    await press(view.stdin, "go", KEYS.enter);
    await until(() => /working · \d+s/.test(view.lastFrame()!));
    await press(view.stdin, KEYS.escape);
    await until(() => state.aborted);
    await until(() => !view.lastFrame()!.includes("working ·"));
  });

  it("an idle lead in a team wakes when its mail arrives, and reads it in a turn", async () => {
    let unread = 0;
    const { session, calls } = fakeSession(answering("on it"), { hasTeamMail: async () => unread > 0 });
    const view = setup(session);
    await until(() => view.lastFrame()!.includes("Ask anything"));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls.turns).toHaveLength(0);
    unread = 2;
    await until(() => calls.turns.length === 1, 5000);
    unread = 0;
    expect(calls.turns[0]).toEqual([{ type: "text", text: TEAM_WAKE_PROMPT }]);
    await until(() => view.lastFrame()!.includes("mail from your team"));
  });

  it("Ctrl+T and /agents with no agent running say so and leave the keys to the input", async () => {
    const { session } = fakeSession(answering());
    const view = setup(session);
    await press(view.stdin, "\x14");
    await until(() => view.lastFrame()!.includes("No agents are running"));
    await press(view.stdin, "/agents", KEYS.enter);
    await settle();
    await press(view.stdin, "still here");
    expect(view.lastFrame()).toContain("› still here");
  });

  it("/exit closes the session and exits", async () => {
    const { session, calls } = fakeSession(answering());
    const view = setup(session);
    await settle();
    await press(view.stdin, "/exit", KEYS.enter);
    await until(() => view.onExit.mock.calls.length === 1);
    expect(calls.closed).toBe(1);
  });
});

describe("settleWithin", () => {
  it("clears its timer when the promise settles first, so nothing holds the process open", async () => {
    vi.useFakeTimers();
    try {
      await settleWithin(Promise.resolve(), 3000);
      expect(vi.getTimerCount()).toBe(0);
      const waiting = settleWithin(new Promise(() => undefined), 3000);
      vi.advanceTimersByTime(3000);
      await waiting;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
