import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const coreDist = fileURLToPath(new URL("../../packages/core/dist/index.js", import.meta.url));
let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-sessions-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("session commands", () => {
  it("list, rename (kept by the next save), export and delete a session", async () => {
    mock = await startScenario({ rules: [{ response: { text: "Sure." } }] });
    const env = anthropicEnv(mock, home);
    await runNyz(["exec", "-q", "explain the parser"], { cwd: workspace, env });
    const list = await runNyz(["sessions"], { cwd: workspace, env });
    expect(list.stdout).toMatch(/^ID\s+TITLE\s+MSGS\s+PROVIDER\/MODEL\s+UPDATED$/m);
    expect(list.stdout).toContain("explain the parser");
    const [meta] = JSON.parse((await runNyz(["sessions", "--json"], { cwd: workspace, env })).stdout);
    const id8 = String(meta.id).slice(0, 8);

    const renamed = await runNyz(["session", "rename", id8, "Parser notes"], { cwd: workspace, env });
    expect(renamed.stdout).toBe(`Renamed session [${id8}] to "Parser notes"\n`);
    await runNyz(["exec", "-q", "--continue", "and the lexer?"], { cwd: workspace, env });
    const [after] = JSON.parse((await runNyz(["sessions", "--json"], { cwd: workspace, env })).stdout);
    expect(after).toMatchObject({ id: meta.id, title: "Parser notes", messageCount: 4 });

    const exported = await runNyz(["export", "parser", "-o", "out.md"], { cwd: workspace, env });
    expect(exported.code).toBe(0);
    const markdown = await readFile(join(workspace, "out.md"), "utf8");
    expect(markdown).toContain("## You\n\nexplain the parser");
    expect(markdown).toContain("## Assistant\n\nSure.");
    const json = await runNyz(["export", id8, "--format", "json", "-o", "out.json"], { cwd: workspace, env });
    expect(json.code).toBe(0);
    expect(JSON.parse(await readFile(join(workspace, "out.json"), "utf8")).messages).toHaveLength(4);

    const missing = await runNyz(["export", "nothing-like-this"], { cwd: workspace, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No session matching 'nothing-like-this'");

    const deleted = await runNyz(["session", "delete", id8], { cwd: workspace, env });
    expect(deleted.stdout).toBe(`Deleted session [${id8}] "Parser notes"\n`);
    expect((await runNyz(["sessions"], { cwd: workspace, env })).stdout).toBe("No saved sessions.\n");
  });
});

describe("crash safety", () => {
  it("leaves every session file parseable, holding the last completed turn, after SIGKILL mid-save", async () => {
    const directory = join(home, "sessions");
    const script = `
      const { SessionStore } = await import(${JSON.stringify(coreDist)});
      const store = new SessionStore(${JSON.stringify(directory)});
      const big = "x".repeat(200_000);
      const records = [0, 1, 2].map((n) => ({
        meta: { id: "session" + n, title: "", createdAt: new Date().toISOString(), updatedAt: "", messageCount: 0, provider: "p", model: "m" },
        messages: [],
      }));
      for (let turn = 1; ; turn++) {
        for (const record of records) {
          record.messages.push({ role: "user", content: "turn " + turn + " " + big }, { role: "assistant", content: "done " + turn });
          await store.save(record);
        }
        process.stdout.write("saved " + turn + "\\n");
      }
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let lastCompleted = 0;
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        const turns = [...chunk.toString().matchAll(/saved (\d+)/g)].map((match) => Number(match[1]));
        lastCompleted = Math.max(lastCompleted, ...turns);
        if (lastCompleted >= 5) {
          child.kill("SIGKILL");
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.on("close", resolve));
    const files = (await readdir(directory)).filter((name) => name.endsWith(".json"));
    expect(files.sort()).toEqual(["session0.json", "session1.json", "session2.json"]);
    for (const file of files) {
      const record = JSON.parse(await readFile(join(directory, file), "utf8"));
      expect(record.messages.length / 2).toBeGreaterThanOrEqual(lastCompleted);
      expect(record.messages.at(-1).content).toMatch(/^done \d+$/);
    }
  });
});
