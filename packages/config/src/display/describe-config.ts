import { stringify } from "smol-toml";
import type { ConfigOrigin, ConfigOrigins } from "../layers/config-origin.js";
import type { NyzhiConfig } from "../schema/config-schema.js";
import { formatTomlValue } from "../toml/format-toml-value.js";
import { isSecretKeyPath, REDACTED_VALUE, redactSecrets } from "./redact-secrets.js";

export interface DisplayOptions {
  /** Replace API keys, tokens and env/header values with `[redacted]`. Default true. */
  redactSecrets?: boolean;
}

/** The resolved config as a TOML document, for `nyz config`. Secrets are redacted by default. */
export function configToToml(config: NyzhiConfig, options: DisplayOptions = {}): string {
  const shown = options.redactSecrets === false ? config : redactSecrets(config);
  return stringify(shown);
}

function describeSource(origin: ConfigOrigin): string {
  if (origin.layer === "default") return "default";
  const contributors = origin.merged ?? [origin];
  return contributors.map((contributor) => `${contributor.layer} ${contributor.source}`).join(", ");
}

export interface DescribeOriginsOptions extends DisplayOptions {
  /** Include values that come from the defaults. Default true. */
  includeDefaults?: boolean;
}

/**
 * One line per resolved value with where it came from, for `nyz config --origins`:
 * `agent.trust.mode = "full"  # project /p/.nyzhi/config.toml`, `tui.theme = "dark"  # default`.
 */
export function describeOrigins(origins: ConfigOrigins, options: DescribeOriginsOptions = {}): string[] {
  const lines: string[] = [];
  for (const [keyPath, origin] of Object.entries(origins)) {
    if (origin.layer === "default" && options.includeDefaults === false) continue;
    const redact = options.redactSecrets !== false;
    const value =
      redact && isSecretKeyPath(keyPath)
        ? REDACTED_VALUE
        : redact
          ? redactSecrets(origin.value)
          : origin.value;
    lines.push(`${keyPath} = ${formatTomlValue(value)}  # ${describeSource(origin)}`);
  }
  return lines;
}
