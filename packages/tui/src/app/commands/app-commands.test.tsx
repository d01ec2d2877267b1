import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "@nyzhi/core";
import { describe, expect, it, vi } from "vitest";
import { answering, fakeSession, until } from "../../test-support/fake-session.js";
import { KEYS, press } from "../../test-support/keys.js";
import { type RenderedApp, renderApp } from "../../test-support/render-app.js";

/** Types a command and waits until `text` shows. */
async function run(view: RenderedApp, command: string, text: string): Promise<string> {
  await press(view.stdin, command, KEYS.enter);
  await until(() => view.frames.join("").includes(text));
  return view.frames.join("");
}

describe("app slash commands", () => {
  it("/help lists the commands and keys", async () => {
    const view = renderApp(fakeSession(answering()).session);
    const all = await run(view, "/help", "Commands:");
    expect(all).toContain("/model [id] — Pick the model, or switch to an id");
    expect(all).toContain("esc interrupt");
    expect(all).toContain("a new line: shift+enter, alt+enter, ctrl+j, or \\ at the line's end then enter");
    expect(all).toContain("history: ↑/↓ walk earlier prompts, ctrl+r searches them");
  });

  it("/model <id> switches the lead's model; /model alone picks from the registry", async () => {
    const { session, calls } = fakeSession(answering());
    const view = renderApp(session);
    await run(view, "/model other-model", "Model: anthropic/other-model");
    expect(calls.models).toEqual(["other-model"]);
    await until(() => view.lastFrame()!.includes("other-model ·"));

    await press(view.stdin, "/model", KEYS.enter);
    await until(() => view.lastFrame()!.includes("Model (now anthropic/other-model)"));
    expect(view.lastFrame()).toContain("anthropic/claude");
    await press(view.stdin, "my-own-model-id");
    await until(() => view.lastFrame()!.includes('enter: use "my-own-model-id"'));
    await press(view.stdin, KEYS.enter);
    await until(() => calls.models.length === 2);
    expect(calls.models[1]).toBe("my-own-model-id");
  });

  it("/clear saves this session and opens a new one with an empty transcript", async () => {
    const first = fakeSession(answering("first answer"), { id: "s1" });
    const second = fakeSession(answering(), { id: "s2" });
    const open = vi.fn().mockResolvedValueOnce(first.session).mockResolvedValueOnce(second.session);
    const view = renderApp(open);
    await press(view.stdin, "hello", KEYS.enter);
    await until(() => view.lastFrame()!.includes("first answer"));
    await press(view.stdin, "/clear", KEYS.enter);
    await until(() => open.mock.calls.length === 2);
    expect(open.mock.calls[1]).toEqual([undefined]);
    expect(first.calls.closed).toBe(1);
    await until(() => view.lastFrame()!.includes("New session. The previous one is saved: nyz -s s1"));
  });

  it("/undo restores the last turn's files and says which", async () => {
    const undoLastTurn = vi.fn(async () => ({
      turnId: "t1",
      restored: [{ path: "/work/project/src/a.ts", action: "restored" }],
      failed: [],
    }));
    const { session } = fakeSession(answering(), { changes: { undoLastTurn } });
    const view = renderApp(session);
    await run(view, "/undo", "restored src/a.ts");
    expect(undoLastTurn).toHaveBeenCalledTimes(1);
  });

  it("/changes and /diff show what this session changed", async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const changes = [
      { path: "/work/project/a.txt", tool: "edit", before: encode("one\n"), after: encode("two\n") },
    ];
    const tracker = { changes: () => changes, changedFiles: () => ["/work/project/a.txt"] };
    const view = renderApp(fakeSession(answering(), { changes: tracker }).session);
    await run(view, "/changes", "a.txt +1 -1");
    const all = await run(view, "/diff", "two");
    expect(all).toContain("one");
    // A diff item (its header counts, its rows numbered and coloured), not a notice's plain text.
    expect(view.lastFrame()).toMatch(/a\.txt\s+\+1 -1/);
    expect(view.lastFrame()).toMatch(/1 - one/);
    expect(view.lastFrame()).toMatch(/1 \+ two/);
  });

  it("/context estimates where the tokens go", async () => {
    const view = renderApp(fakeSession(answering()).session);
    const all = await run(view, "/context", "conversation");
    expect(all).toMatch(/system prompt\s+~\d/);
    expect(all).toMatch(/tools\s+~\d/);
  });

  it("/export writes the session as Markdown", async () => {
    const root = await mkdtemp(join(tmpdir(), "nyzhi-tui-export-"));
    const { session } = fakeSession(answering(), {
      projectRoot: root,
      messages: [{ role: "user", content: "export me" }],
    });
    const view = renderApp(session);
    await run(view, "/export out.md", "Exported the session");
    expect(await readFile(join(root, "out.md"), "utf8")).toContain("export me");
  });

  it("/export without a path writes to the data dir, not the project, and prints the path", async () => {
    const root = await mkdtemp(join(tmpdir(), "nyzhi-tui-export-"));
    const home = await mkdtemp(join(tmpdir(), "nyzhi-tui-export-home-"));
    const { session } = fakeSession(answering(), {
      projectRoot: root,
      messages: [{ role: "user", content: "export me" }],
    });
    const view = renderApp(session, { env: { NYZHI_HOME: home } });
    const all = await run(view, "/export", "Exported the session");
    const exports = join(home, "data", "exports");
    const [file] = await readdir(exports);
    expect(file).toMatch(/^nyzhi-export-.*\.md$/);
    expect(all.replace(/\s+/g, "")).toContain(join(exports, file!));
    expect(await readFile(join(exports, file!), "utf8")).toContain("export me");
    expect(await readdir(root)).toEqual([]);
  });

  it("/sessions lists saved sessions and resumes the one picked", async () => {
    const home = await mkdtemp(join(tmpdir(), "nyzhi-tui-sessions-"));
    const store = new SessionStore(join(home, "data", "sessions"));
    const now = new Date().toISOString();
    await store.save({
      meta: {
        id: "older-0000-session",
        title: "fix the parser",
        createdAt: now,
        updatedAt: now,
        messageCount: 1,
        provider: "anthropic",
        model: "m",
        projectRoot: "/work/project",
      },
      messages: [{ role: "user", content: "fix the parser" }],
    });
    const first = fakeSession(answering(), { id: "current" });
    const resumed = fakeSession(answering(), { id: "older-0000-session" });
    const open = vi.fn().mockResolvedValueOnce(first.session).mockResolvedValueOnce(resumed.session);
    const view = renderApp(open, { env: { NYZHI_HOME: home } });
    await run(view, "/sessions", "Resume a session");
    expect(view.lastFrame()).toContain("fix the parser");
    await press(view.stdin, KEYS.enter);
    await until(() => open.mock.calls.length === 2);
    expect(open.mock.calls[1]).toEqual([{ query: "older-0000-session" }]);
  });

  it("/todo, /hooks and /mcp say what there is", async () => {
    const todos = { list: () => [{ id: "1" }], format: () => "[ ] write the tests" };
    const { session } = fakeSession(answering(), {
      todos,
      agentConfig: {
        hooks: [{ event: "after_edit", command: "pnpm lint", hook_type: "command", block: false }],
      },
    });
    const view = renderApp(session);
    await run(view, "/todo", "[ ] write the tests");
    await run(view, "/hooks", "after_edit: pnpm lint");
    await run(view, "/mcp", "No MCP servers");
  });

  it("lists the project's custom commands for completion and runs one through the session", async () => {
    const root = await mkdtemp(join(tmpdir(), "nyzhi-tui-custom-"));
    await mkdir(join(root, ".nyzhi", "commands"), { recursive: true });
    await writeFile(
      join(root, ".nyzhi", "commands", "review.md"),
      "---\ndescription: Review a file\n---\nReview $ARGUMENTS\n",
    );
    const { session, calls } = fakeSession(answering("reviewed"), { projectRoot: root });
    const view = renderApp(session);
    // `/help` lists it once the project's commands are loaded (in the background).
    for (let tries = 0; tries < 40 && !view.frames.join("").includes("/review — Review a file"); tries++) {
      await press(view.stdin, "/help", KEYS.enter);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await press(view.stdin, "/revi");
    await until(() => view.lastFrame()!.includes("Review a file"));
    await press(view.stdin, KEYS.escape, "ew src/a.ts", KEYS.enter);
    await until(() => calls.turns.length === 1);
    expect(calls.turns[0]).toEqual([{ type: "text", text: "Review this code" }]);
  });

  it("/login runs in the app: the credentials per provider and how to log in", async () => {
    const home = await mkdtemp(join(tmpdir(), "nyzhi-app-login-"));
    const view = renderApp(fakeSession(answering()).session, {
      env: { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file" },
    });
    const all = await run(view, "/login", "nyz login <provider>");
    expect(all).toContain("Anthropic");
    expect(all).toContain("not connected");
  });
});
