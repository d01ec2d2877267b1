import { describe, expect, it } from "vitest";
import { defaultConfig } from "../schema/config-schema.js";
import type { ConfigLayerInput } from "./config-origin.js";
import { mergeConfigLayers } from "./merge-layers.js";

const GLOBAL = "/home/u/.config/nyzhi/config.toml";
const PROJECT = "/p/.nyzhi/config.toml";
const LOCAL = "/p/.nyzhi/config.local.toml";

const global = (data: Record<string, unknown>): ConfigLayerInput => ({
  layer: "global",
  source: GLOBAL,
  data,
});
const project = (data: Record<string, unknown>): ConfigLayerInput => ({
  layer: "project",
  source: PROJECT,
  data,
});
const local = (data: Record<string, unknown>): ConfigLayerInput => ({ layer: "local", source: LOCAL, data });

describe("mergeConfigLayers: explicitly set beats default", () => {
  it("takes the project's max_retries over the global one", () => {
    const { config } = mergeConfigLayers([
      global({ agent: { retry: { max_retries: 5 } } }),
      project({ agent: { retry: { max_retries: 4 } } }),
    ]);
    expect(config.agent.retry).toEqual({ max_retries: 4, initial_backoff_ms: 1000, max_backoff_ms: 30000 });
  });

  it("lets a project set a value back to its default (global 5, project 3 → 3)", () => {
    const { config, origins } = mergeConfigLayers([
      global({
        agent: { retry: { max_retries: 5 } },
        provider: { default: "anthropic" },
        memory: { auto_memory: false },
      }),
      project({
        agent: { retry: { max_retries: 3 } },
        provider: { default: "openai" },
        memory: { auto_memory: true },
      }),
    ]);
    expect(config.agent.retry.max_retries).toBe(3);
    expect(config.provider.default).toBe("openai");
    expect(config.memory.auto_memory).toBe(true);
    expect(origins["agent.retry.max_retries"]).toEqual({ layer: "project", source: PROJECT, value: 3 });
  });

  it("keeps the global value when the project does not set the key (no OR/AND merging)", () => {
    const { config } = mergeConfigLayers([
      global({ memory: { auto_memory: false }, browser: { headless: false }, index: { enabled: false } }),
      project({ memory: {}, browser: { enabled: true } }),
    ]);
    expect(config.memory).toEqual({ auto_memory: false });
    expect(config.browser).toEqual({ enabled: true, headless: false });
    expect(config.index.enabled).toBe(false);
  });

  it("applies the local layer over the project layer", () => {
    const { config, origins } = mergeConfigLayers([
      project({ agent: { trust: { mode: "limited" }, max_steps: 40 } }),
      local({ agent: { trust: { mode: "full" } } }),
    ]);
    expect(config.agent.trust.mode).toBe("full");
    expect(config.agent.max_steps).toBe(40);
    expect(origins["agent.trust.mode"]).toEqual({ layer: "local", source: LOCAL, value: "full" });
    expect(origins["agent.max_steps"]).toEqual({ layer: "project", source: PROJECT, value: 40 });
  });

  it("replaces lists that are not unions (allow_tools) with the later layer's", () => {
    const { config } = mergeConfigLayers([
      global({ agent: { trust: { allow_tools: ["bash", "edit"] } } }),
      project({ agent: { trust: { allow_tools: [] } } }),
    ]);
    expect(config.agent.trust.allow_tools).toEqual([]);
  });
});

describe("mergeConfigLayers: maps merge by key", () => {
  it("merges provider.<id> field by field and keeps ids present on one side", () => {
    const { config, origins } = mergeConfigLayers([
      global({ provider: { anthropic: { api_key: "sk-g", model: "m-global" }, groq: { model: "llama" } } }),
      project({
        provider: { anthropic: { model: "m-project" }, ollama: { base_url: "http://localhost:11434/v1" } },
      }),
    ]);
    expect(config.provider).toEqual({
      default: "openai",
      anthropic: { api_key: "sk-g", model: "m-project" },
      groq: { model: "llama" },
      ollama: { base_url: "http://localhost:11434/v1" },
    });
    expect(origins["provider.anthropic.api_key"]).toEqual({ layer: "global", source: GLOBAL, value: "sk-g" });
    expect(origins["provider.anthropic.model"]).toEqual({
      layer: "project",
      source: PROJECT,
      value: "m-project",
    });
  });

  it("replaces an mcp.servers entry whole and keeps the other servers", () => {
    const { config, origins } = mergeConfigLayers([
      global({
        mcp: { servers: { exa: { command: "npx", args: ["exa"] }, docs: { url: "https://g/mcp" } } },
      }),
      project({ mcp: { servers: { exa: { url: "https://exa/mcp" } } } }),
    ]);
    expect(config.mcp.servers).toEqual({
      exa: { url: "https://exa/mcp", headers: {}, enabled: true },
      docs: { url: "https://g/mcp", headers: {}, enabled: true },
    });
    expect(origins["mcp.servers.exa.url"]).toEqual({
      layer: "project",
      source: PROJECT,
      value: "https://exa/mcp",
    });
    expect(origins["mcp.servers.exa.command"]).toBeUndefined();
    expect(origins["mcp.servers.exa.headers"]).toEqual({ layer: "default", source: "default", value: {} });
  });

  it("replaces roles by name, merges shell.env by variable", () => {
    const { config } = mergeConfigLayers([
      global({
        agent: {
          agents: { roles: { reviewer: { model: "big", read_only: true }, planner: { description: "p" } } },
        },
        shell: { env: { A: "1", B: "2" } },
      }),
      project({
        agent: { agents: { roles: { reviewer: { description: "r" } } } },
        shell: { env: { B: "3" } },
      }),
    ]);
    expect(config.agent.agents.roles).toEqual({
      reviewer: { description: "r", enabled: true },
      planner: { description: "p", enabled: true },
    });
    expect(config.shell.env).toEqual({ A: "1", B: "3" });
  });

  it("does not let an empty table in a later layer erase earlier entries", () => {
    const { config } = mergeConfigLayers([
      global({ mcp: { servers: { exa: { command: "npx" } } } }),
      project({ mcp: { servers: {} } }),
    ]);
    expect(Object.keys(config.mcp.servers)).toEqual(["exa"]);
  });
});

describe("mergeConfigLayers: unions and concatenation", () => {
  it("unions deny lists and index.exclude, sorted and deduped, with every contributor in the origin", () => {
    const { config, origins } = mergeConfigLayers([
      global({
        agent: { trust: { deny_tools: ["rm", "bash"], deny_paths: [".env"] } },
        index: { exclude: ["dist"] },
      }),
      project({ agent: { trust: { deny_tools: ["bash", "curl"] } }, index: { exclude: ["build", "dist"] } }),
      local({ agent: { trust: { deny_paths: ["secrets/"] } } }),
    ]);
    expect(config.agent.trust.deny_tools).toEqual(["bash", "curl", "rm"]);
    expect(config.agent.trust.deny_paths).toEqual([".env", "secrets/"]);
    expect(config.index.exclude).toEqual(["build", "dist"]);
    expect(origins["agent.trust.deny_tools"]).toEqual({
      layer: "project",
      source: PROJECT,
      value: ["bash", "curl", "rm"],
      merged: [
        { layer: "global", source: GLOBAL },
        { layer: "project", source: PROJECT },
      ],
    });
  });

  it("concatenates hooks and commands, global first, with an origin per element", () => {
    const { config, origins } = mergeConfigLayers([
      global({
        agent: { hooks: [{ event: "after_turn", command: "g" }], commands: [{ name: "a", prompt: "A" }] },
      }),
      project({
        agent: {
          hooks: [{ event: "after_edit", command: "p", pattern: "*.ts" }],
          commands: [{ name: "b", prompt: "B" }],
        },
      }),
    ]);
    expect(config.agent.hooks).toEqual([
      { event: "after_turn", command: "g", hook_type: "command", block: false, timeout: 30 },
      { event: "after_edit", command: "p", pattern: "*.ts", hook_type: "command", block: false, timeout: 30 },
    ]);
    expect(config.agent.commands).toEqual([
      { name: "a", prompt: "A" },
      { name: "b", prompt: "B" },
    ]);
    expect(origins["agent.hooks.0"]?.layer).toBe("global");
    expect(origins["agent.hooks.1"]).toEqual({
      layer: "project",
      source: PROJECT,
      value: config.agent.hooks[1],
    });
  });
});

describe("mergeConfigLayers: global-only keys", () => {
  it("ignores [projects] outside the global file, with a warning", () => {
    const { config, warnings, origins } = mergeConfigLayers([
      global({ projects: { "/work/a": { trusted: true } } }),
      project({ projects: { "/work/evil": { trusted: true } } }),
      {
        layer: "env",
        source: "environment",
        data: { projects: { "/work/env": { trusted: true } } },
        keySources: { projects: "NYZHI_CONFIG__PROJECTS" },
      },
    ]);
    expect(config.projects).toEqual({ "/work/a": { trusted: true } });
    expect(origins["projects./work/a.trusted"]).toEqual({ layer: "global", source: GLOBAL, value: true });
    expect(warnings).toEqual([
      {
        kind: "global-only",
        source: PROJECT,
        keyPath: "projects",
        message: `warning: ${PROJECT}: projects is only read from the global config file; the project value is ignored`,
      },
      {
        kind: "global-only",
        source: "NYZHI_CONFIG__PROJECTS",
        keyPath: "projects",
        message:
          "warning: NYZHI_CONFIG__PROJECTS: projects is only read from the global config file; the env value is ignored",
      },
    ]);
  });
});

describe("mergeConfigLayers: defaults", () => {
  it("gives the defaults, each with origin default, when no layer sets anything", () => {
    const { config, origins, warnings } = mergeConfigLayers([]);
    expect(config).toEqual(defaultConfig());
    expect(warnings).toEqual([]);
    expect(origins["agent.trust.mode"]).toEqual({ layer: "default", source: "default", value: "off" });
    expect(origins["agent.max_steps"]).toEqual({ layer: "default", source: "default", value: 100 });
    expect(Object.values(origins).every((origin) => origin.layer === "default")).toBe(true);
  });

  it("moves the deprecated agent.subagent_model to agent.agents.subagent_model with a warning", () => {
    const { config, warnings } = mergeConfigLayers([global({ agent: { subagent_model: "small" } })]);
    expect(config.agent.agents.subagent_model).toBe("small");
    expect(warnings.map((warning) => warning.message)).toEqual([
      `warning: ${GLOBAL}: agent.subagent_model is deprecated; use agent.agents.subagent_model`,
    ]);
  });
});
