import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { getConfigValue } from "../key-paths/key-path.js";
import { mergeConfigLayers } from "../layers/merge-layers.js";
import { configSchema, defaultConfig } from "../schema/config-schema.js";
import { configToToml, describeOrigins } from "./describe-config.js";

const PROJECT = "/p/.nyzhi/config.toml";

function merged() {
  return mergeConfigLayers([
    {
      layer: "global",
      source: "/g/config.toml",
      data: { provider: { anthropic: { api_key: "sk-secret" } } },
    },
    { layer: "project", source: PROJECT, data: { agent: { trust: { mode: "full", deny_tools: ["rm"] } } } },
    {
      layer: "flag",
      source: "flags",
      data: { agent: { max_steps: 9 } },
      keySources: { "agent.max_steps": "--max-steps" },
    },
  ]);
}

describe("describeOrigins", () => {
  it("prints each set value with its layer and source, secrets redacted", () => {
    expect(describeOrigins(merged().origins, { includeDefaults: false })).toEqual([
      'provider.anthropic.api_key = "[redacted]"  # global /g/config.toml',
      "agent.max_steps = 9  # flag --max-steps",
      `agent.trust.mode = "full"  # project ${PROJECT}`,
      `agent.trust.deny_tools = ["rm"]  # project ${PROJECT}`,
    ]);
  });

  it("marks defaults and can show secrets when asked", () => {
    const lines = describeOrigins(merged().origins, { redactSecrets: false });
    expect(lines).toContain('tui.theme = "dark"  # default');
    expect(lines).toContain('provider.anthropic.api_key = "sk-secret"  # global /g/config.toml');
  });
});

describe("configToToml and getConfigValue", () => {
  it("round-trips the resolved config through TOML, redacting secrets by default", () => {
    const { config } = merged();
    expect(configSchema.parse(parse(configToToml(config, { redactSecrets: false })))).toEqual(config);
    expect(parse(configToToml(config))).toMatchObject({ provider: { anthropic: { api_key: "[redacted]" } } });
  });

  it("reads values by dotted key path", () => {
    const config = defaultConfig();
    expect(getConfigValue(config, "agent.trust.mode")).toBe("off");
    expect(getConfigValue(config, "agent.retry")).toEqual({
      max_retries: 3,
      initial_backoff_ms: 1000,
      max_backoff_ms: 30000,
    });
    expect(getConfigValue(config, "agent.nope.deeper")).toBeUndefined();
  });
});
