import { describe, expect, it } from "vitest";
import { configSchema, defaultConfig, isStdioMcpServer, providerEntries } from "./config-schema.js";
import { editDistance, findUnknownKeys } from "./find-unknown-keys.js";

describe("configSchema", () => {
  it("resolves an empty document to every default of spec §1.3 plus the added keys", () => {
    expect(defaultConfig()).toEqual({
      provider: { default: "openai" },
      models: { max_tokens: 4096 },
      tui: {
        markdown: true,
        streaming: true,
        theme: "dark",
        accent: "copper",
        colors: {},
        output_style: "normal",
        show_thinking: true,
        notify: { bell: true, desktop: false, min_duration_ms: 5000 },
      },
      agent: {
        max_steps: 100,
        plan_mode: false,
        auto_compact_threshold: 0.85,
        max_concurrent_streams: 3,
        sandbox: "workspace-write",
        trust: {
          mode: "off",
          allow_tools: [],
          allow_paths: [],
          deny_tools: [],
          deny_paths: [],
          auto_approve: [],
          always_ask: [],
          remember_approvals: false,
        },
        retry: { max_retries: 3, initial_backoff_ms: 1000, max_backoff_ms: 30000 },
        hooks: [],
        commands: [],
        verify: { checks: [] },
        agents: {
          enabled: true,
          max_threads: 4,
          max_depth: 2,
          max_tasks: 8,
          max_running: 16,
          max_queued: 64,
          roles: {},
        },
        budget: {},
        sharing: { enabled: false, redact_patterns: [] },
      },
      mcp: { servers: {} },
      shell: {
        env: {},
        env_passthrough: [],
        startup_commands: [],
        sandbox: { enabled: false, allow_network: [], allow_read: [], allow_write: [], block_dotfiles: true },
      },
      web: { allow_private: false, allow_hosts: [] },
      browser: { enabled: false, headless: true },
      memory: { auto_memory: true },
      index: {
        enabled: true,
        embedding: "auto",
        embedding_model: "",
        auto: true,
        auto_headless: false,
        auto_context: true,
        auto_context_chunks: 5,
        auto_context_tokens: 2000,
        auto_context_wait_ms: 150,
        exclude: [],
      },
      projects: {},
    });
  });

  it("resolves a present-but-empty section like an absent one (no [browser] headless quirk)", () => {
    expect(configSchema.parse({ browser: {}, shell: { sandbox: {} } })).toEqual(defaultConfig());
  });

  it("normalises trust and sandbox aliases", () => {
    for (const spelling of ["auto_edit", "auto-edit", "AutoEdit", "autoedit"]) {
      expect(configSchema.parse({ agent: { trust: { mode: spelling } } }).agent.trust.mode).toBe("autoedit");
    }
    expect(configSchema.parse({ agent: { sandbox: "readonly" } }).agent.sandbox).toBe("read-only");
    expect(configSchema.parse({ agent: { sandbox: "danger-full-access" } }).agent.sandbox).toBe(
      "full-access",
    );
  });

  it("parses roles and both MCP server kinds with their defaults", () => {
    const config = configSchema.parse({
      agent: {
        agents: { roles: { reviewer: { read_only: true, mcp_servers: ["exa"] } } },
        tool_role_patterns: { reviewer: ["read*"] },
      },
      mcp: { servers: { exa: { command: "npx" }, docs: { url: "https://d", timeout_ms: 500 } } },
    });
    expect(config.agent.agents.roles.reviewer).toEqual({
      read_only: true,
      mcp_servers: ["exa"],
      enabled: true,
    });
    expect(config.agent.tool_role_patterns).toEqual({ reviewer: ["read*"] });
    expect(config.mcp.servers).toEqual({
      exa: { command: "npx", args: [], env: {}, enabled: true },
      docs: { url: "https://d", headers: {}, enabled: true, timeout_ms: 500 },
    });
    const exa = config.mcp.servers.exa;
    expect(exa && isStdioMcpServer(exa)).toBe(true);
  });

  it("lists provider entries without provider.default", () => {
    const config = configSchema.parse({ provider: { default: "groq", groq: { model: "m" } } });
    expect(providerEntries(config)).toEqual([["groq", { model: "m" }]]);
  });
});

describe("findUnknownKeys", () => {
  it("finds unknown keys at any depth, inside maps and arrays, with suggestions", () => {
    expect(
      findUnknownKeys(configSchema, {
        agent: { max_step: 3, mode: "full", hooks: [{ event: "after_turn", comand: "x" }] },
        mcp: { servers: { exa: { command: "npx", argz: [] } } },
        provider: { anthropic: { modle: "x" }, defualt: "groq", groq: {} },
        colour: {},
      }),
    ).toEqual([
      { path: ["agent", "max_step"], suggestion: "agent.max_steps" },
      { path: ["agent", "mode"], suggestion: "agent.trust.mode" },
      { path: ["agent", "hooks", "0", "comand"], suggestion: "agent.hooks.0.command" },
      { path: ["mcp", "servers", "exa", "argz"], suggestion: "mcp.servers.exa.args" },
      { path: ["provider", "anthropic", "modle"], suggestion: "provider.anthropic.model" },
      { path: ["provider", "defualt"], suggestion: "provider.default" },
      { path: ["colour"] },
    ]);
  });

  it("measures edit distance", () => {
    expect(editDistance("max_step", "max_steps")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("modle", "model")).toBe(1);
  });
});
