/**
 * The slice of the nyzhi config the factory reads: `[provider.<id>]` tables. Typed
 * structurally so provider does not depend on the config schema's internals; both the TOML
 * spelling (`base_url`) and a camel-cased one (`baseUrl`) are read.
 */
export interface ProviderConfigView {
  provider?: Record<string, ProviderEntryView | string | undefined> | undefined;
}

export interface ProviderEntryView {
  base_url?: string | undefined;
  baseUrl?: string | undefined;
  api_style?: string | undefined;
  apiStyle?: string | undefined;
  model?: string | undefined;
}

/** The `[provider.<id>]` entry, or undefined. (`provider.default` is a string, not an entry.) */
export function providerEntry(
  config: ProviderConfigView | undefined,
  providerId: string,
): ProviderEntryView | undefined {
  const entry = config?.provider?.[providerId];
  return typeof entry === "object" && entry !== null ? entry : undefined;
}

export function configuredBaseUrl(
  config: ProviderConfigView | undefined,
  providerId: string,
): string | undefined {
  const entry = providerEntry(config, providerId);
  return nonEmpty(entry?.base_url) ?? nonEmpty(entry?.baseUrl);
}

export function configuredApiStyle(
  config: ProviderConfigView | undefined,
  providerId: string,
): string | undefined {
  const entry = providerEntry(config, providerId);
  return nonEmpty(entry?.api_style) ?? nonEmpty(entry?.apiStyle);
}

export function configuredModel(
  config: ProviderConfigView | undefined,
  providerId: string,
): string | undefined {
  return nonEmpty(providerEntry(config, providerId)?.model);
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
