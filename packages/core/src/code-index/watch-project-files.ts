import { relative, sep } from "node:path";

/** ms of quiet after the last change before the changed files are handed on (an editor's save burst). */
export const WATCH_DEBOUNCE_MS = 150;

/** Directories never watched: what no index holds, and trees too large to watch for nothing. */
const UNWATCHED_DIRECTORY = /(^|[\\/])(\.git|node_modules|\.hg|\.svn|\.jj|\.nyzhi)([\\/]|$)/;

export interface FileWatcher {
  close(): Promise<void>;
}

/**
 * Watches the project for added, changed and deleted files (chokidar 5: `fs.watch` per directory
 * on Linux, no native addon), and hands their absolute paths on in batches, `WATCH_DEBOUNCE_MS`
 * after the last change. Resolves once the initial scan is done, so changes from then on are seen.
 * Which files belong in the index is not decided here: the index's own rules judge each path.
 */
export async function watchProjectFiles(
  root: string,
  onChange: (paths: string[]) => void,
  options: { debounceMs?: number } = {},
): Promise<FileWatcher> {
  const { watch } = await import("chokidar");
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const handOn = () => {
    timer = undefined;
    const paths = [...changed];
    changed.clear();
    if (paths.length > 0) onChange(paths);
  };
  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (path: string) => UNWATCHED_DIRECTORY.test(relative(root, path).split(sep).join("/")),
  });
  const record = (path: string) => {
    changed.add(path);
    if (timer) clearTimeout(timer);
    timer = setTimeout(handOn, debounceMs);
    timer.unref();
  };
  watcher.on("add", record).on("change", record).on("unlink", record);
  await new Promise<void>((resolve) => {
    watcher.once("ready", () => resolve());
    watcher.once("error", () => resolve());
  });
  return {
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
