import type { NyzhiDirs } from "@nyzhi/config";
import type { PathAccess, PathGuard } from "../../engines/sandbox/path-guard-types.js";

export type {
  PathAccess,
  PathGuard,
  PathGuardResolveOptions,
} from "../../engines/sandbox/path-guard-types.js";

/**
 * What a tool does, for permissions and scheduling. `read` tools never change anything;
 * `edit` tools change files; `execute` tools run commands; `agent` tools manage other agents;
 * `interact` tools talk to the user; `network` tools reach outside the machine.
 */
export type ToolKind = "read" | "edit" | "execute" | "agent" | "interact" | "network" | "memory";

export interface PathUse {
  path: string;
  access: PathAccess;
  /**
   * The write is to a file nyzhi keeps in its config dir (the global agents.json), with content the
   * tool checked itself. Under `workspace-write` the sandbox lets it land there although it is
   * outside the workspace; `read-only` still refuses it. Deny rules and the trust mode judge it like
   * any other path, so modes that auto-approve only workspace edits ask for it.
   */
  configFile?: boolean;
}

/** A tool's answer to the model. */
export interface ToolResult {
  /** Text the model sees. */
  output: string;
  /** True when the call failed; the model sees the output as an error. */
  isError?: boolean;
  /** Structured detail for hosts (diffs, exit codes, counts); never sent to the model. */
  metadata?: Record<string, unknown>;
}

/** Streamed progress from a running tool (e.g. `bash` output as it arrives). */
export interface ToolProgress {
  type: "output";
  text: string;
}

/** A file a mutating tool changed, so a turn can be undone. */
export interface FileChange {
  path: string;
  /** Content before the change; undefined when the file did not exist. */
  before: Uint8Array | undefined;
  /** Content after; undefined when the tool deleted it. */
  after: Uint8Array | undefined;
  tool: string;
}

/** Records file changes; the change tracker in context/ implements it. */
export interface ChangeRecorder {
  /** Call before changing `path`: snapshots the current content. */
  beforeChange(path: string, tool: string): Promise<void>;
  /** Call after changing `path`: records the new content. */
  afterChange(path: string, tool: string): Promise<void>;
}

/** Everything a tool may use while it runs. Hosts and the loop build it; tools only read it. */
export interface ToolContext {
  /**
   * The working directory: where the user started nyzhi. Relative paths resolve against it,
   * commands run in it, and searches default to it.
   */
  cwd: string;
  /**
   * The project root (the nearest ancestor of `cwd` with `.git`, `.nyzhi` or `.claude`): the
   * sandbox's bounds and where the project's own files live (`.nyzhi/`, agents.json, memory).
   * Default `cwd` (see `projectRootOf`).
   */
  projectRoot?: string;
  /** Id of this tool call (unique per call). */
  callId: string;
  signal: AbortSignal;
  paths: PathGuard;
  changes: ChangeRecorder;
  dirs: NyzhiDirs;
  /** The agent running the tool. */
  agent: { id: string; depth: number; role?: string; nickname?: string };
  /** Streams progress to the host (e.g. bash output). */
  progress: (event: ToolProgress) => void;
  /** Per-agent services keyed by name (todos, notepad, memory, manager …), set up by the runtime. */
  services: ToolServices;
}

/**
 * Services a tool may need beyond the filesystem. Each is optional so that a tool set can be
 * run without the full runtime (tests, library users); a tool that needs a missing one returns
 * an error result saying so.
 */
export interface ToolServices {
  /** Asks the user a question through the host (ask_user). */
  askUser?: (question: string, options?: { choices?: string[] }) => Promise<string>;
  [name: string]: unknown;
}

/** The project root of a tool context: `projectRoot`, else the working directory. */
export function projectRootOf(context: Pick<ToolContext, "cwd" | "projectRoot">): string {
  return context.projectRoot ?? context.cwd;
}
