import {
  compareText,
  errorMessage,
  getLogger,
  loadConfig,
  NyzhiError,
  resolveDirs,
  withFileLock,
  writeFileAtomic,
} from "@nyzhi/config";
import {
  assertNever,
  compactThread,
  contextDirs,
  estimateTokens,
  exportSessionMarkdown,
  formatRoleCatalog,
  formatTaskLine,
  formatUndoReport,
  leadName,
  listMemoryTopics,
  listModels,
  listNotepads,
  loadCustomCommands,
  loadSkills,
  mcpPromptCommands,
  openSession,
  parseSlashInput,
  projectMemoryDir,
  RoleCatalog,
  readMemoryTopic,
  readNotepad,
  SessionStore,
  TeamStore,
} from "@nyzhi/core";

/**
 * What the app's bundle (`dist/app.mjs`) takes of @nyzhi/config and @nyzhi/core: this process's
 * modules, already loaded with the commands' bundle, so core is in memory once. Exactly the names
 * the tui imports: building app.mjs fails, naming it, when the tui imports one not listed here
 * (see tsup.config.ts). Whole namespaces would pull every export of core into the commands' bundle
 * (+40 KB, ~2 ms on every `nyz` start).
 */
export const HOST_MODULES = {
  "@nyzhi/config": {
    compareText,
    errorMessage,
    getLogger,
    loadConfig,
    NyzhiError,
    resolveDirs,
    withFileLock,
    writeFileAtomic,
  },
  "@nyzhi/core": {
    assertNever,
    compactThread,
    contextDirs,
    estimateTokens,
    exportSessionMarkdown,
    formatRoleCatalog,
    formatTaskLine,
    formatUndoReport,
    leadName,
    listMemoryTopics,
    listModels,
    listNotepads,
    loadCustomCommands,
    loadSkills,
    mcpPromptCommands,
    openSession,
    parseSlashInput,
    projectMemoryDir,
    readMemoryTopic,
    readNotepad,
    RoleCatalog,
    SessionStore,
    TeamStore,
  },
} as const;
