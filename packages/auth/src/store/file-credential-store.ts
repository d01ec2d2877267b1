import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type FileLockOptions, withFileLock, writeFileAtomic } from "@nyzhi/config";
import { CorruptAuthFileError } from "../errors/auth-errors.js";
import {
  type AccountsByProvider,
  AuthFileShapeError,
  parseAuthFile,
  serializeAuthFile,
} from "./auth-file-format.js";
import type { CredentialStore, StoredAccount } from "./credential-store.js";
import { createSerialQueue } from "./serial-queue.js";

/** Serialises writes per path across every store instance in this process. */
const queuesByPath = new Map<string, ReturnType<typeof createSerialQueue>>();

function queueFor(path: string): ReturnType<typeof createSerialQueue> {
  let queue = queuesByPath.get(path);
  if (!queue) {
    queue = createSerialQueue();
    queuesByPath.set(path, queue);
  }
  return queue;
}

async function readStore(path: string): Promise<AccountsByProvider> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  try {
    return parseAuthFile(text);
  } catch (error) {
    if (error instanceof AuthFileShapeError) throw new CorruptAuthFileError(path, error.message);
    throw error;
  }
}

/**
 * The file fallback: `auth.json` in the data directory, mode 0600, replaced atomically on every
 * write. A file that cannot be parsed is reported (CorruptAuthFileError) and never overwritten,
 * because every write reads it first. Writes are serialised within the process and, through
 * `auth.json.lock`, across nyzhi processes.
 */
export function createFileCredentialStore(path: string, lockOptions: FileLockOptions = {}): CredentialStore {
  const serial = queueFor(path);
  return {
    kind: "file",
    location: path,
    async listAccounts(providerId) {
      const providers = await readStore(path);
      return providers[providerId] ?? [];
    },
    async listProviders() {
      const providers = await readStore(path);
      return Object.keys(providers).filter((id) => (providers[id] ?? []).length > 0);
    },
    update(providerId, change) {
      return serial(async () => {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        return withFileLock(
          `${path}.lock`,
          async () => {
            const providers = await readStore(path);
            const next: StoredAccount[] = change(structuredClone(providers[providerId] ?? []));
            if (next.length === 0) delete providers[providerId];
            else providers[providerId] = next;
            await writeFileAtomic(path, serializeAuthFile(providers), { mode: 0o600 });
            return next;
          },
          lockOptions,
        );
      });
    },
  };
}
