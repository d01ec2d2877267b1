export { NyzhiError, errorMessage } from "./base/errors.js";
export { writeFileAtomic, type WriteFileAtomicOptions } from "./base/write-file-atomic.js";
export { getLogger, setLogger, REDACTED_LOG_PATHS, type Logger } from "./base/logger.js";
export { resolveDirs, globalConfigPath, type NyzhiDirs, type Environment } from "./paths/data-dirs.js";
export {
  BUILT_IN_PROVIDERS,
  findBuiltInProvider,
  type BuiltInProvider,
  type ApiStyle,
} from "./providers/built-in-providers.js";
