import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("a damaged (truncated) session file", () => {
  it("is listed with its path and problem, named when resumed, and can be deleted", async () => {
    const workspace = await tempProject("nyzhi-damaged-session-");
    const home = await tempHome();
    mock = await startScenario({ rules: [{ response: { text: "Sure." } }] });
    const env = anthropicEnv(mock, home);
    const run = (args: string[]) => runNyz(args, { cwd: workspace, env, timeoutMs: 60_000 });

    expect((await run(["exec", "-q", "explain the parser"])).code).toBe(0);
    expect((await run(["exec", "-q", "and the lexer"])).code).toBe(0);
    const sessions = JSON.parse((await run(["sessions", "--json"])).stdout) as {
      id: string;
      title: string;
    }[];
    const damaged = sessions.find((meta) => meta.title === "explain the parser")!;
    const kept = sessions.find((meta) => meta.title === "and the lexer")!;
    const directory = join(home, "data", "sessions");
    const path = join(directory, `${damaged.id}.json`);
    const whole = await readFile(path, "utf8");
    await writeFile(path, whole.slice(0, Math.floor(whole.length / 2)));
    const id8 = damaged.id.slice(0, 8);

    // Listed: the good one as before, the damaged one marked, with its path and what is wrong.
    const list = await run(["sessions"]);
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^${kept.id.slice(0, 8)}\\s+and the lexer\\s+2\\s`));
    expect(lines[2]).toMatch(
      new RegExp(`^${id8}\\s+\\[damaged\\]\\s+-\\s+-\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`),
    );
    expect(lines[3]).toMatch(new RegExp(`^\\s+${escapeRegExp(path)}: not valid JSON \\(.+\\)$`));
    // --json keeps its shape (readable sessions only) and names the damaged file on stderr.
    const json = await run(["sessions", "--json"]);
    expect(JSON.parse(json.stdout).map((meta: { id: string }) => meta.id)).toEqual([kept.id]);
    expect(json.stderr).toMatch(
      new RegExp(
        `^Warning: damaged session ${damaged.id}: ${escapeRegExp(path)}: not valid JSON \\(.+\\)\\n$`,
      ),
    );

    // Resuming it by id prefix fails, naming the file and what is wrong; no model request is made.
    const requestsBefore = mock.requests.length;
    const resumed = await run(["exec", "--session", id8, "go on"]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(
      new RegExp(
        `^Error: Session ${damaged.id} is damaged and cannot be opened: ${escapeRegExp(path)}: not valid JSON \\(.+\\)\\. Repair the file, or delete it with \`nyz session delete ${damaged.id}\`\\.\\n$`,
      ),
    );
    expect(mock.requests.length).toBe(requestsBefore);
    expect(await readFile(path, "utf8")).toBe(whole.slice(0, Math.floor(whole.length / 2)));

    const deleted = await run(["session", "delete", id8]);
    expect(deleted.stdout).toBe(`Deleted damaged session [${id8}] (${path})\n`);
    expect(await readdir(directory)).toEqual([`${kept.id}.json`]);
  }, 120_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
