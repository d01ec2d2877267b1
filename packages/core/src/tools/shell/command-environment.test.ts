import { defaultConfig } from "@nyzhi/config";
import { describe, expect, it } from "vitest";
import { buildCommandEnvironment, heldCredentialValues, shellEnvironmentOf } from "./command-environment.js";

describe("buildCommandEnvironment", () => {
  const base = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    ANTHROPIC_API_KEY: "sk-ant-secret-1",
    GITHUB_TOKEN: "ghp_secret",
    DB_PASSWORD: "hunter2",
    AWS_SECRET_ACCESS_KEY: "aws-secret",
    AWS_REGION: "eu-west-1",
    npm_config__authToken: "npm-secret",
    CLAUDE: "sk-ant-secret-1",
    SHORT: "abc",
    UNSET: undefined,
  };

  it("leaves out credential names (any case) and variables holding a credential nyzhi holds", () => {
    expect(
      buildCommandEnvironment(base, { passthrough: [], set: {}, secretValues: ["sk-ant-secret-1", "abc"] }),
    ).toEqual({
      env: { PATH: "/usr/bin", HOME: "/home/me", AWS_REGION: "eu-west-1", SHORT: "abc" },
      removed: [
        "ANTHROPIC_API_KEY",
        "AWS_SECRET_ACCESS_KEY",
        "CLAUDE",
        "DB_PASSWORD",
        "GITHUB_TOKEN",
        "npm_config__authToken",
      ],
    });
  });

  it("keeps what passthrough names, by name or glob, and sets shell.env on top", () => {
    const { env } = buildCommandEnvironment(base, {
      passthrough: ["GITHUB_TOKEN", "AWS_*"],
      set: { DB_PASSWORD: "from-config", EXTRA: "1" },
      secretValues: [],
    });
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/me",
      GITHUB_TOKEN: "ghp_secret",
      AWS_SECRET_ACCESS_KEY: "aws-secret",
      AWS_REGION: "eu-west-1",
      CLAUDE: "sk-ant-secret-1",
      SHORT: "abc",
      DB_PASSWORD: "from-config",
      EXTRA: "1",
    });
  });
});

describe("heldCredentialValues", () => {
  it("collects configured api_key values and every provider key variable's value", () => {
    const config = defaultConfig();
    config.provider["my-llm"] = { api_key: "configured-key" };
    const env = { OPENAI_API_KEY: "openai-key", MY_LLM_API_KEY: "my-llm-key", OTHER: "x" };
    expect(heldCredentialValues(config, env).sort()).toEqual(["configured-key", "my-llm-key", "openai-key"]);
  });
});

describe("shellEnvironmentOf", () => {
  it("falls back to scrubbing only", () => {
    expect(shellEnvironmentOf({ services: {} })).toEqual({ passthrough: [], set: {}, secretValues: [] });
  });
});
