// The names of @nyzhi/core the app's bundle takes from this process (see host-modules.ts): the
// session API (`openSession`) and the few helpers the app's commands format with.
export {
  assertNever,
  authStatus,
  detectBwrap,
  exportSessionMarkdown,
  formatAuthStatus,
  formatRoleCatalog,
  formatTaskLine,
  formatUndoReport,
  listMemoryTopics,
  listModels,
  listNotepads,
  loadSkills,
  openCredentialStore,
  openSession,
  parseSlashInput,
  projectMemoryDir,
  RoleCatalog,
  readMemoryTopic,
  readNotepad,
  SessionStore,
} from "@nyzhi/core";
