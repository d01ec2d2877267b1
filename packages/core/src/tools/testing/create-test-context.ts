import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { NyzhiError, resolveDirs } from "@nyzhi/config";
import { ChangeTracker } from "../../changes/change-tracker.js";
import type { PathAccess, PathGuard, ToolContext, ToolServices } from "../seam/tool-types.js";

export interface TestContext {
  context: ToolContext;
  /** The temp workspace (real path, so it compares equal to resolved paths on macOS). */
  cwd: string;
  tracker: ChangeTracker;
  controller: AbortController;
  /** Progress events the tools emitted, in order. */
  progress: string[];
  /** Removes the temp directory. */
  cleanup: () => Promise<void>;
}

export interface CreateTestContextOptions {
  services?: ToolServices;
  agent?: ToolContext["agent"];
  /** Use this directory as the workspace instead of a fresh temp dir (not removed by cleanup). */
  cwd?: string;
}

/**
 * A ToolContext over a fresh temp directory, for tests: a lexical path guard (relative paths
 * resolve against the workspace; anything outside it is refused), a real ChangeTracker, an
 * AbortController, and nyzhi dirs under the temp dir so nothing touches the real home.
 */
export async function createTestContext(options: CreateTestContextOptions = {}): Promise<TestContext> {
  const ownsDir = options.cwd === undefined;
  const cwd = await realpath(options.cwd ?? (await mkdtemp(join(tmpdir(), "nyzhi-tools-"))));
  const tracker = new ChangeTracker();
  const controller = new AbortController();
  const progress: string[] = [];
  const context: ToolContext = {
    cwd,
    callId: "call-test",
    signal: controller.signal,
    paths: createLexicalPathGuard(cwd),
    changes: tracker,
    dirs: resolveDirs({ NYZHI_HOME: join(cwd, ".nyzhi-home") }),
    agent: options.agent ?? { id: "agent-test", depth: 0 },
    progress: (event) => progress.push(event.text),
    services: options.services ?? {},
  };
  return {
    context,
    cwd,
    tracker,
    controller,
    progress,
    cleanup: async () => {
      if (ownsDir) await rm(cwd, { recursive: true, force: true });
    },
  };
}

/** Resolves against `root` and refuses any path that lands outside it (no symlink checks). */
export function createLexicalPathGuard(root: string): PathGuard {
  return {
    async resolve(path: string, access: PathAccess): Promise<string> {
      const absolute = isAbsolute(path) ? resolve(path) : resolve(root, path);
      const fromRoot = relative(root, absolute);
      if (
        fromRoot === ".." ||
        fromRoot.startsWith(`..${"/"}`) ||
        fromRoot.startsWith("..\\") ||
        isAbsolute(fromRoot)
      ) {
        throw new NyzhiError(
          "sandbox_denied",
          `${access} access to ${absolute} is outside the workspace ${root}`,
        );
      }
      return absolute;
    },
  };
}
