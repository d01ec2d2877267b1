import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { forgetKnownSecrets, registerSecret } from "@nyzhi/config";
import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_LOCK_STALE_MS, SessionStore } from "./session-store.js";
import type { SessionRecord } from "./session-types.js";

function record(id: string, firstMessage: string): SessionRecord {
  return {
    meta: {
      id,
      title: "",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "",
      messageCount: 0,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    },
    messages: [
      { role: "user", content: firstMessage },
      { role: "assistant", content: "ok" },
    ],
  };
}

describe("SessionStore", () => {
  let store: SessionStore;
  beforeEach(async () => {
    store = new SessionStore(join(await mkdtemp(join(tmpdir(), "nyzhi-sessions-")), "sessions"));
  });

  it("saves and loads a session with its title, counts and the model used", async () => {
    await store.save(record("aaaa1111", "Fix the failing parser test"));
    const loaded = await store.load("aaaa1111");
    expect(loaded.meta).toMatchObject({
      id: "aaaa1111",
      title: "Fix the failing parser test",
      messageCount: 2,
      model: "claude-sonnet-4-5",
    });
    expect(loaded.messages).toEqual(record("x", "Fix the failing parser test").messages);
    expect(await readdir(store.directory)).toEqual(["aaaa1111.json"]);
  });

  it("does not write an unchanged record again when asked not to, and writes a changed one", async () => {
    const saved = record("abab1212", "Close me twice");
    await store.save(saved);
    const path = join(store.directory, "abab1212.json");
    const first = await readFile(path, "utf8");
    const firstTime = saved.meta.updatedAt;
    await writeFile(path, first.replace("Close me twice", "marker"));
    await store.save(saved, { unlessUnchanged: true });
    // Not rewritten: the marker is still there, the save time stays.
    expect(await readFile(path, "utf8")).toContain("marker");
    expect(saved.meta.updatedAt).toBe(firstTime);
    saved.messages.push({ role: "user", content: "one more" });
    await store.save(saved, { unlessUnchanged: true });
    const loaded = await store.load("abab1212");
    expect(loaded.meta).toMatchObject({ messageCount: 3, title: "Close me twice" });
    expect(loaded.meta.updatedAt > firstTime).toBe(true);
    // Without the option a save always writes.
    await store.save(saved);
    expect(JSON.parse(await readFile(path, "utf8")).meta.updatedAt > loaded.meta.updatedAt).toBe(true);
  });

  it("writes session files readable by their owner only", async () => {
    await store.save(record("bbbb2222", "private"));
    await store.rename("bbbb2222", "renamed");
    expect((await stat(join(store.directory, "bbbb2222.json"))).mode & 0o777).toBe(0o600);
  });

  it("lets one holder at a time take a session; a second taker fails at once", async () => {
    await store.save(record("cccc3333", "held"));
    const release = await store.lock("cccc3333");
    await expect(store.lock("cccc3333")).rejects.toMatchObject({ code: "session_in_use" });
    await expect(store.rename("cccc3333", "x")).rejects.toMatchObject({ code: "session_in_use" });
    await release();
    await (await store.lock("cccc3333"))();
    expect((await store.rename("cccc3333", "now free")).title).toBe("now free");
  });

  it("takes over a lock nobody refreshed for SESSION_LOCK_STALE_MS, even if its pid is alive now", async () => {
    await store.save(record("ffff6666", "crashed"));
    // A crashed run's lock whose pid now belongs to a live process (here: this one).
    await writeFile(
      join(store.directory, "ffff6666.lock"),
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        token: "old",
        at: Date.now() - SESSION_LOCK_STALE_MS - 1000,
      }),
    );
    const release = await store.lock("ffff6666");
    await release();
  });

  it("finds the latest session of one project", async () => {
    await store.save({
      ...record("dddd4444", "in a"),
      meta: { ...record("dddd4444", "").meta, projectRoot: "/a" },
    });
    await store.save({
      ...record("eeee5555", "in b"),
      meta: { ...record("eeee5555", "").meta, projectRoot: "/b" },
    });
    expect((await store.latest({ projectRoot: "/a" }))?.id).toBe("dddd4444");
    expect((await store.latest())?.id).toBe("eeee5555");
    expect(await store.latest({ projectRoot: "/c" })).toBeUndefined();
  });

  it("lists sessions saved within one millisecond in save order", async () => {
    const ids = ["aaaa0001", "aaaa0002", "aaaa0003", "aaaa0004", "aaaa0005"];
    for (const id of ids) await store.save(record(id, `prompt ${id}`));
    expect((await store.list()).map((meta) => meta.id)).toEqual([...ids].reverse());
  });

  it("keeps a renamed title across later saves", async () => {
    const first = record("bbbb2222", "original prompt");
    await store.save(first);
    await store.rename("bbbb2222", "My renamed session");
    const reloaded = await store.load("bbbb2222");
    reloaded.messages.push({ role: "user", content: "more" });
    await store.save(reloaded);
    expect((await store.load("bbbb2222")).meta.title).toBe("My renamed session");
  });

  it("cuts long titles by code points, never inside a character", async () => {
    const long = "é🙂".repeat(60);
    const meta = await store.save(record("cccc3333", long));
    expect(Array.from(meta.title)).toHaveLength(80);
    expect(meta.title.endsWith("...")).toBe(true);
    expect(meta.title).not.toMatch(/\uFFFD/);
  });

  it("lists newest first, skips corrupt files, finds by id prefix or title", async () => {
    await store.save(record("dddd4444", "alpha task"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.save(record("eeee5555", "beta task"));
    await writeFile(join(store.directory, "broken.json"), "{not json");
    expect((await store.list()).map((meta) => meta.id)).toEqual(["eeee5555", "dddd4444"]);
    expect((await store.find("dddd")).map((meta) => meta.id)).toEqual(["dddd4444"]);
    expect((await store.find("BETA")).map((meta) => meta.id)).toEqual(["eeee5555"]);
    await expect(store.resolveOne("task")).rejects.toThrow(/Ambiguous: 2 sessions match 'task'/);
    await expect(store.resolveOne("zzz")).rejects.toThrow("No session matching 'zzz'");
    expect((await store.resolveOne("alpha")).id).toBe("dddd4444");
  });

  it("names damaged files: scan lists them with path and problem, resolveOne refuses them by name", async () => {
    const id = "ffff7777-0000-4000-8000-000000000000";
    await store.save(record(id, "was fine"));
    const path = join(store.directory, `${id}.json`);
    const whole = await readFile(path, "utf8");
    await writeFile(path, whole.slice(0, Math.floor(whole.length / 2)));
    await store.save(record("aaaa8888", "still fine"));
    await writeFile(join(store.directory, "not-a-session.json"), "[]");

    const scan = await store.scan();
    expect(scan.sessions.map((meta) => meta.id)).toEqual(["aaaa8888"]);
    expect(
      scan.damaged
        .map(({ modifiedAt: _modifiedAt, ...file }) => file)
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id, path, problem: expect.stringMatching(/^not valid JSON \(.+\)$/) },
      {
        id: "not-a-session",
        path: join(store.directory, "not-a-session.json"),
        problem: "not a nyzhi session file (missing meta or messages)",
      },
    ]);
    expect((await store.scan("ffff")).damaged.map((file) => file.id)).toEqual([id]);

    const refused = store.resolveOne("ffff7777");
    await expect(refused).rejects.toMatchObject({ code: "session_damaged" });
    await expect(refused).rejects.toThrow(
      new RegExp(`^Session ${id} is damaged and cannot be opened: ${path}: not valid JSON \\(`),
    );
    await expect(store.resolveOne(id)).rejects.toMatchObject({ code: "session_damaged" });
    expect(await store.resolveAny("ffff")).toMatchObject({ kind: "damaged", damaged: { id, path } });
    await store.delete(id);
    expect((await store.scan()).damaged.map((file) => file.id)).toEqual(["not-a-session"]);
  });
});

describe("SessionStore and known credentials", () => {
  it("saves a thread with every registered secret redacted (title included)", async () => {
    const key = "sk-ant-SESSION-PLANTED-9876";
    registerSecret(key);
    try {
      const store = new SessionStore(join(await mkdtemp(join(tmpdir(), "nyzhi-sessions-")), "sessions"));
      await store.save(record("with-key", `my key is ${key}`));
      const text = await readFile(store.pathOf("with-key"), "utf8");
      expect(text).not.toContain(key);
      expect((await store.load("with-key")).messages[0]).toEqual({
        role: "user",
        content: "my key is [redacted]",
      });
    } finally {
      forgetKnownSecrets();
    }
  });
});
