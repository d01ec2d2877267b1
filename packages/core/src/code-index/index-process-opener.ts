import type { Environment, NyzhiConfig } from "@nyzhi/config";
import type { CodeIndex } from "@nyzhi/index";

/**
 * How to start the child process that serves a session's code index (`serveIndexProcess`): for
 * the app, `process.execPath` with `[<path of nyz.cjs>, "__index-process"]`.
 */
export interface IndexProcessCommand {
  command: string;
  args: readonly string[];
}

/**
 * `CodeIndexService`'s `open` for an index served by a child process (`openIndexProcess`): LanceDB
 * and the chunker's tree-sitter load there, not in the session's process. The child starts on the
 * index's first call.
 */
export function indexProcessOpener(
  command: IndexProcessCommand,
  options: { root: string; env: Environment; config: NyzhiConfig },
): () => Promise<CodeIndex> {
  return async () => {
    const { openIndexProcess } = await import("@nyzhi/index");
    return openIndexProcess({ ...command, ...options });
  };
}
