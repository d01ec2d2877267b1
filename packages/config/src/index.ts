export { errorMessage, NyzhiError } from "./base/errors.js";
export { getLogger, type Logger, REDACTED_LOG_PATHS, setLogger } from "./base/logger.js";
export { type WriteFileAtomicOptions, writeFileAtomic } from "./base/write-file-atomic.js";
export { type Environment, globalConfigPath, type NyzhiDirs, resolveDirs } from "./paths/data-dirs.js";
export {
  type ApiStyle,
  BUILT_IN_PROVIDERS,
  type BuiltInProvider,
  findBuiltInProvider,
} from "./providers/built-in-providers.js";
