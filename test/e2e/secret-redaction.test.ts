import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { type NyzResult, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/** A distinctive key, planted as ANTHROPIC_API_KEY: it must appear in nothing nyz writes. */
const KEY = "sk-ant-PLANTED-7f3c9e1b5d2a8064";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-secrets-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(workspace, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

const env = (server: MockLlm) => ({
  ...anthropicEnv(server, home),
  ANTHROPIC_API_KEY: KEY,
  NYZHI_LOG: "debug",
});

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found[path] = await readFile(path, "utf8");
  }
  return found;
}

function expectNoKey(results: NyzResult[], files: Record<string, string>): void {
  for (const result of results) {
    expect(result.stdout).not.toContain(KEY);
    expect(result.stderr).not.toContain(KEY);
  }
  for (const [path, text] of Object.entries(files)) expect(text, path).not.toContain(KEY);
}

describe("a planted API key", () => {
  it("appears nowhere: stdout, --json events, the log, the saved session, exports", async () => {
    // The model reads a file holding the key, then repeats it in its streamed answer.
    await writeFile(join(workspace, "notes.txt"), `deploy key: ${KEY}\n`);
    mock = await startScenario({
      rules: [
        {
          match: { lastIsToolResult: true },
          response: { text: ["The notes say the key is sk-ant-PLA", "NTED-7f3c9e", `1b5d2a8064. Done.`] },
        },
        { response: { toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }] } },
      ],
    });
    const json = await runNyz(["exec", "--json", `what is in notes.txt? (the key may be ${KEY})`], {
      cwd: workspace,
      env: env(mock),
    });
    expect(json.code, json.stderr).toBe(0);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const text = events
      .filter((event) => event.type === "text_delta")
      .map((event) => event.text)
      .join("");
    expect(text).toBe("The notes say the key is [redacted]. Done.");
    expect(events.find((event) => event.type === "tool_done")?.output).toContain("deploy key: [redacted]");
    // The model was sent the real key where it read it (what it reads is not output).
    expect(mock.requests.length).toBe(2);

    const sessionId = events[0]?.session_id as string;
    const text_run = await runNyz(["exec", "--session", sessionId, "again"], {
      cwd: workspace,
      env: env(mock),
    });
    const markdown = await runNyz(["export", sessionId, "--format", "md", "-o", join(workspace, "out.md")], {
      cwd: workspace,
      env: env(mock),
    });
    const exported = await runNyz(
      ["export", sessionId, "--format", "json", "-o", join(workspace, "out.json")],
      {
        cwd: workspace,
        env: env(mock),
      },
    );
    expect([markdown.code, exported.code]).toEqual([0, 0]);
    const files = { ...(await filesUnder(home)), ...(await filesUnder(workspace)) };
    delete files[join(workspace, "notes.txt")];
    expect(Object.keys(files).some((path) => path.endsWith("nyzhi.log"))).toBe(true);
    expect(Object.keys(files).some((path) => path.endsWith(`${sessionId}.json`))).toBe(true);
    expect(files[join(workspace, "out.md")]).toContain("deploy key: [redacted]");
    expectNoKey([json, text_run, markdown, exported], files);
  }, 30_000);

  it("is redacted from a provider's 401 that quotes it, on stderr, in the --json error and in the log", async () => {
    mock = await startScenario({
      rules: [{ response: { fault: { type: "status", status: 401, message: `invalid x-api-key: ${KEY}` } } }],
    });
    const json = await runNyz(["exec", "--json", "hello"], { cwd: workspace, env: env(mock) });
    const text = await runNyz(["exec", "hello"], { cwd: workspace, env: env(mock) });
    const quiet = await runNyz(["exec", "-q", "hello"], { cwd: workspace, env: env(mock) });
    for (const result of [json, text, quiet]) expect(result.code).toBe(1);
    const error = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; message?: string })
      .find((event) => event.type === "error");
    expect(error?.message).toContain("invalid x-api-key: [redacted]");
    expect(text.stderr).toContain("invalid x-api-key: [redacted]");
    const files = await filesUnder(home);
    // The error reached the log, redacted.
    expect(files[join(home, "data", "logs", "nyzhi.log")]).toContain("invalid x-api-key: [redacted]");
    expectNoKey([json, text, quiet], files);
  }, 30_000);

  it("is masked by `nyz config --json` and `config get` when it sits in the config", async () => {
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(
      join(home, "config", "config.toml"),
      `[provider.openai]\napi_key = "${KEY}"\nmax_tokens = 2048\n\n[models]\nmax_tokens = 8000\n`,
    );
    const run = (args: string[]) => runNyz(args, { cwd: workspace, env: { NYZHI_HOME: home } });
    const json = await run(["config", "--json"]);
    const get = await run(["config", "get", "provider.openai.api_key"]);
    const origin = await run(["config", "--origin"]);
    expect([json.code, get.code, origin.code]).toEqual([0, 0, 0]);
    const config = JSON.parse(json.stdout) as {
      provider: { openai: { api_key: string; max_tokens: number } };
      models: { max_tokens: number };
    };
    expect(config.provider.openai).toEqual({ api_key: "[redacted]", max_tokens: 2048 });
    expect(config.models.max_tokens).toBe(8000);
    expect(get.stdout).toBe("[redacted]\n");
    expect(origin.stdout).toContain("models.max_tokens = 8000");
    expectNoKey([json, get, origin], {});
  });
});

describe("nyz auth status", () => {
  it("says connected right after `nyz login anthropic --api-key KEY`", async () => {
    const storeEnv = { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file" };
    const login = await runNyz(["login", "anthropic", "--api-key", KEY], { cwd: workspace, env: storeEnv });
    expect(login.code, login.stderr).toBe(0);
    const status = await runNyz(["auth", "status"], { cwd: workspace, env: storeEnv });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Anthropic\s+connected$/m);
    const json = await runNyz(["auth", "status", "--json"], { cwd: workspace, env: storeEnv });
    const rows = JSON.parse(json.stdout) as Array<{ id: string; status: string; accounts: unknown[] }>;
    expect(rows.find((row) => row.id === "anthropic")).toMatchObject({ status: "connected" });
    expect(rows.find((row) => row.id === "anthropic")?.accounts).toHaveLength(1);
    expectNoKey([login, status, json], {});
  });
});
