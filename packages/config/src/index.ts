export { compareText } from "./base/compare-text.js";
export {
  ConfigError,
  type ConfigErrorCode,
  type ConfigErrorDetails,
  type ConfigWarning,
} from "./base/config-error.js";
export { errorMessage, NyzhiError } from "./base/errors.js";
export {
  acquireFileLock,
  DEFAULT_STALE_LOCK_MS,
  type FileLockOptions,
  isAlive,
  isLockStale,
  LockTimeoutError,
  type ReleaseLock,
  withFileLock,
} from "./base/file-lock.js";
export { getLogger, type Logger, REDACTED_LOG_PATHS, setLogger } from "./base/logger.js";
export { readFileIfExists } from "./base/read-file-if-exists.js";
export { markStartup, STARTUP_MARKS } from "./base/startup-marks.js";
export { type WriteFileAtomicOptions, writeFileAtomic } from "./base/write-file-atomic.js";
export {
  configToToml,
  type DescribeOriginsOptions,
  type DisplayOptions,
  describeOrigins,
} from "./display/describe-config.js";
export {
  forEachSecretValue,
  isSecretKeyName,
  isSecretKeyPath,
  REDACTED_VALUE,
  redactSecrets,
} from "./display/redact-secrets.js";
export { getConfigValue, splitKeyPath } from "./key-paths/key-path.js";
export {
  CONFIG_LAYERS,
  type ConfigLayerInput,
  type ConfigLayerName,
  type ConfigOrigin,
  type ConfigOrigins,
  type ConfigSource,
} from "./layers/config-origin.js";
export { buildEnvLayer, GENERIC_ENV_PREFIX } from "./layers/env-layer.js";
export { buildFlagLayer } from "./layers/flag-layer.js";
export { GLOBAL_ONLY_KEYS, isGlobalOnlyKey } from "./layers/global-only-keys.js";
export {
  type ConfigFile,
  configFilePaths,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  readConfigFile,
  reloadConfig,
} from "./layers/load-config.js";
export { type MergedConfig, mergeConfigLayers } from "./layers/merge-layers.js";
export {
  isProjectTrusted,
  PROJECT_POWER_KEYS,
  projectTrustKey,
} from "./layers/project-trust.js";
export { NOT_YET_READ_KEYS, REMOVED_KEYS } from "./layers/unused-keys.js";
export { fetchWithProxy } from "./network/fetch-with-proxy.js";
export { proxyAgentFor } from "./network/proxy-agent.js";
export { ProxyConfigError, type ProxyEnvironment, proxyForUrl } from "./network/proxy-for-url.js";
export { type Environment, globalConfigPath, type NyzhiDirs, resolveDirs } from "./paths/data-dirs.js";
export {
  type ApiStyle,
  BUILT_IN_PROVIDERS,
  type BuiltInProvider,
  findBuiltInProvider,
} from "./providers/built-in-providers.js";
export {
  isKnownProvider,
  knownProviderIds,
  nearestProviderId,
  type ProviderTableView,
  UnknownProviderError,
} from "./providers/unknown-provider-error.js";
export { loadConditionalRules, type MatchedRules } from "./rules/load-conditional-rules.js";
export {
  type ConditionalRule,
  LOCAL_PREFERENCE_FILES,
  type LoadedRules,
  loadRules,
  PRIMARY_RULE_FILES,
  type RuleSection,
} from "./rules/load-rules.js";
export { type FrontMatterResult, parseFrontMatter } from "./rules/parse-front-matter.js";
export {
  addIgnoreEntries,
  ensureNyzhiGitignore,
  gitExcludeFile,
  NYZHI_GITIGNORE_ENTRIES,
} from "./scaffold/ignore-local-files.js";
export { type ScaffoldResult, scaffoldProject } from "./scaffold/scaffold-project.js";
export {
  EMBEDDING_KINDS,
  type EmbeddingKind,
  HOOK_EVENTS,
  HOOK_TYPES,
  type HookEvent,
  type HookType,
  normalizeSandboxLevel,
  normalizeTrustMode,
  OUTPUT_STYLES,
  type OutputStyle,
  SANDBOX_LEVELS,
  type SandboxLevel,
  TRUST_MODES,
  type TrustMode,
} from "./schema/config-enums.js";
export {
  type ConfigKeyReference,
  configReference,
  type ProjectPermission,
  renderConfigReference,
} from "./schema/config-reference.js";
export {
  budgetSchema,
  type CustomCommandConfig,
  configSchema,
  defaultConfig,
  type HookConfig,
  type HttpMcpServerConfig,
  ISOLATION_MODES,
  isStdioMcpServer,
  type McpServerConfig,
  type NyzhiConfig,
  type ProviderEntry,
  providerEntries,
  type RoleConfig,
  type StdioMcpServerConfig,
  WITHOUT_ZOD_JIT,
} from "./schema/config-schema.js";
export {
  forgetKnownSecrets,
  MIN_SECRET_LENGTH,
  pendingSecretPrefixLength,
  redactKnownSecrets,
  registerEnvironmentSecrets,
  registerSecret,
} from "./secrets/known-secrets.js";
export { parseConfigValue } from "./toml/parse-toml-document.js";
export {
  findProjectRoot,
  type ProjectMarker,
  projectMarkerIn,
} from "./workspace/find-project-root.js";
export {
  addMcpServerTable,
  type McpServerEntryInput,
  type McpServerTableResult,
  removeMcpServerTable,
} from "./writer/mcp-server-table.js";
export { type ProjectTrustChange, setProjectTrust } from "./writer/project-trust-table.js";
export {
  type SetConfigValueOptions,
  type SetConfigValueResult,
  setConfigValue,
} from "./writer/set-config-value.js";
