export { ExitCode, type ExitCodeValue } from "./io/exit-codes.js";
export { type CommandIo, processIo } from "./io/output.js";
export { buildProgram, type GlobalFlags, main } from "./main.js";
export { NYZHI_VERSION } from "./version.js";
