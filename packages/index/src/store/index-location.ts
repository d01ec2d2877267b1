import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { type Environment, resolveDirs } from "@nyzhi/config";

/** Where one project's index lives: `<data>/index/<first 16 hex of sha256(absolute root)>/`. */
export interface IndexLocation {
  /** The project root, absolute. */
  root: string;
  directory: string;
  /** The committed manifest: what readers see. */
  manifestPath: string;
  /** A rebuild's manifest while it runs; it replaces `manifestPath` when the rebuild completes. */
  nextManifestPath: string;
  /** Held by the one process writing this index. */
  lockPath: string;
  /** The LanceDB database (one table per build). */
  databasePath: string;
}

export function indexLocation(root: string, env: Environment): IndexLocation {
  const absoluteRoot = resolve(root);
  const hash = createHash("sha256").update(absoluteRoot).digest("hex").slice(0, 16);
  const directory = join(resolveDirs(env).index, hash);
  return {
    root: absoluteRoot,
    directory,
    manifestPath: join(directory, "manifest.json"),
    nextManifestPath: join(directory, "manifest.next.json"),
    lockPath: join(directory, "write.lock"),
    databasePath: join(directory, "lance"),
  };
}
