// The names of @nyzhi/config the app's bundle takes from this process (see host-modules.ts).
export {
  compareText,
  describeOrigins,
  errorMessage,
  getLogger,
  globalConfigPath,
  loadConfig,
  markStartup,
  NyzhiError,
  resolveDirs,
  scaffoldProject,
  setConfigValue,
  setProjectTrust,
  withFileLock,
  writeFileAtomic,
} from "@nyzhi/config";
