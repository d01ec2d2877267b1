import { rm } from "node:fs/promises";
import { BUILT_IN_PROVIDERS } from "@nyzhi/config";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * Which provider `nyz exec` talks to when the user names none, or names one that does not exist
 * (issue 18, points 5 and 6). No NYZHI_PROVIDER and no config file: only the keys in the env.
 */
let mock: MockLlm;
let home: string;
let workspace: string;

beforeEach(async () => {
  mock = await startScenario({ rules: [{ response: { text: "hello from the mock" } }] });
  home = await tempHome();
  workspace = await tempProject("nyzhi-provider-choice-");
});
afterEach(async () => {
  await mock.close();
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

/** A clean environment: a temp NYZHI_HOME, the file credential store, and the given keys. */
function envWith(extra: Record<string, string>): Record<string, string> {
  return { NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file", ...extra };
}

const anthropicAtMock = () => ({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: `${mock.url}/v1` });
const openaiAtMock = () => ({ OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: `${mock.url}/v1` });

describe("no provider configured", () => {
  it("uses Anthropic when only ANTHROPIC_API_KEY is set, and the summary names it", async () => {
    const result = await runNyz(["exec", "--ephemeral", "hi"], {
      cwd: workspace,
      env: envWith(anthropicAtMock()),
    });
    expect(result.stderr).not.toMatch(/No credentials/);
    expect(result.code).toBe(0);
    expect(mock.requests.map((request) => [request.api, request.model])).toEqual([
      ["anthropic", "claude-sonnet-4-6-20260217"],
    ]);
    expect(result.stderr).toContain("anthropic/claude-sonnet-4-6-20260217");
    // One provider with credentials: nothing to choose, so no note.
    expect(result.stderr).not.toMatch(/^Using /m);
  });

  it("picks by preference when several have credentials, and says how to choose", async () => {
    const result = await runNyz(["exec", "--ephemeral", "hi"], {
      cwd: workspace,
      env: envWith({ ...anthropicAtMock(), ...openaiAtMock() }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "Using anthropic (credentials found for anthropic, openai); choose with -p or `nyz config set provider.default …`\n",
    );
    expect(mock.requests.map((request) => request.api)).toEqual(["anthropic"]);
  });

  it("uses the provider of a key saved with `nyz login` when the environment has none", async () => {
    const login = await runNyz(["login", "openai", "--api-key", "-"], {
      cwd: workspace,
      env: envWith({}),
      stdin: "sk-stored-key\n",
    });
    expect(login.code).toBe(0);
    const result = await runNyz(["exec", "--ephemeral", "hi"], {
      cwd: workspace,
      env: envWith({ OPENAI_BASE_URL: `${mock.url}/v1` }),
    });
    expect(result.code).toBe(0);
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.headers.authorization).toBe("Bearer sk-stored-key");
    expect(result.stderr).toContain("openai/");
  });

  it("without any credentials, says how to add a key for several providers (exit 1)", async () => {
    const result = await runNyz(["exec", "--ephemeral", "hi"], { cwd: workspace, env: envWith({}) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No provider is configured and no credentials were found/);
    for (const hint of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "nyz login <provider>"]) {
      expect(result.stderr).toContain(hint);
    }
    expect(mock.requests).toEqual([]);
  });

  it("keeps a configured provider even when only another one has a key", async () => {
    const result = await runNyz(["exec", "--ephemeral", "hi"], {
      cwd: workspace,
      env: envWith({ ...anthropicAtMock(), NYZHI_PROVIDER: "openai" }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No credentials found for provider 'openai'/);
    expect(mock.requests).toEqual([]);
  });
});

describe("unknown provider ids", () => {
  it("`-p antropic` is a usage error (exit 2) that suggests anthropic", async () => {
    const result = await runNyz(["exec", "-p", "antropic", "hi"], {
      cwd: workspace,
      env: envWith(anthropicAtMock()),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /Unknown provider 'antropic' \(from --provider\)\. Did you mean 'anthropic'\?/,
    );
    expect(result.stderr).not.toMatch(/No model for provider/);
    expect(mock.requests).toEqual([]);
  });

  it("`--model antropic/…` is a usage error that suggests the corrected model", async () => {
    const result = await runNyz(["exec", "--model", "antropic/claude-haiku-4-5", "hi"], {
      cwd: workspace,
      env: envWith(anthropicAtMock()),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /Unknown provider 'antropic'.*Did you mean 'anthropic\/claude-haiku-4-5'\?/,
    );
    expect(mock.requests).toEqual([]);
  });

  it("a model id with a slash still reaches a provider whose ids have one (OpenRouter)", async () => {
    const result = await runNyz(
      ["exec", "--ephemeral", "-p", "openrouter", "--model", "meta-llama/llama-4", "hi"],
      {
        cwd: workspace,
        env: envWith({ OPENROUTER_API_KEY: "sk-or-test", OPENROUTER_BASE_URL: `${mock.url}/v1` }),
      },
    );
    expect(result.code).toBe(0);
    expect(mock.requests.map((request) => request.model)).toEqual(["meta-llama/llama-4"]);
  });

  it("`nyz models antropic` exits 2 and suggests anthropic", async () => {
    const result = await runNyz(["models", "antropic"], { cwd: workspace, env: envWith({}) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Did you mean 'anthropic'\?/);
  });
});

describe("nyz models", () => {
  it("lists every built-in provider, those without registry models too", async () => {
    const result = await runNyz(["models"], { cwd: workspace, env: envWith({}) });
    expect(result.code).toBe(0);
    const listed = new Set(result.stdout.split("\n").map((line) => line.trim().split(/\s+/)[0]));
    expect(BUILT_IN_PROVIDERS.map((provider) => provider.id).filter((id) => !listed.has(id))).toEqual([]);
  });

  it("`nyz models openrouter` says how to pick one of its models (exit 0)", async () => {
    const result = await runNyz(["models", "openrouter"], { cwd: workspace, env: envWith({}) });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--model openrouter/<model>");
  });
});
