import { resolve } from "node:path";
import { resolveDirs, writeFileAtomic } from "@nyzhi/config";
import {
  exportSessionJson,
  exportSessionMarkdown,
  type SessionMeta,
  SessionStore,
  truncateEnd,
} from "@nyzhi/core";
import { UsageError } from "../headless/headless-options.js";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";

const storeFor = (io: CommandIo) => new SessionStore(resolveDirs(io.env).sessions);

function formatRow(meta: SessionMeta): string {
  const providerModel = truncateEnd(`${meta.provider}/${meta.model}`, 19);
  const updated = meta.updatedAt.replace("T", " ").slice(0, 16);
  return `${meta.id.slice(0, 8).padEnd(10)} ${truncateEnd(meta.title, 37).padEnd(40)} ${String(meta.messageCount).padStart(4)}  ${providerModel.padEnd(20)} ${updated}`;
}

/** `nyz sessions [query] [--json]`: newest first, at most 50 rows. */
export async function listSessions(
  io: CommandIo,
  query: string | undefined,
  options: { json?: boolean },
): Promise<number> {
  const store = storeFor(io);
  const sessions = query ? await store.find(query) : await store.list();
  if (options.json) {
    io.stdout(`${JSON.stringify(sessions, null, 2)}\n`);
    return ExitCode.success;
  }
  if (sessions.length === 0) {
    io.stdout(query ? `No sessions matching '${query}'\n` : "No saved sessions.\n");
    return ExitCode.success;
  }
  io.stdout(
    `${"ID".padEnd(10)} ${"TITLE".padEnd(40)} ${"MSGS".padStart(4)}  ${"PROVIDER/MODEL".padEnd(20)} UPDATED\n`,
  );
  for (const meta of sessions.slice(0, 50)) io.stdout(`${formatRow(meta)}\n`);
  if (sessions.length > 50) io.stdout(`... and ${sessions.length - 50} more\n`);
  return ExitCode.success;
}

/** `nyz session rename <query> <title>`. */
export async function renameSession(io: CommandIo, query: string, title: string): Promise<number> {
  const store = storeFor(io);
  const meta = await store.rename((await store.resolveOne(query)).id, title);
  io.stdout(`Renamed session [${meta.id.slice(0, 8)}] to "${meta.title}"\n`);
  return ExitCode.success;
}

/** `nyz session delete <query>`. */
export async function deleteSession(io: CommandIo, query: string): Promise<number> {
  const store = storeFor(io);
  const meta = await store.resolveOne(query);
  await store.delete(meta.id);
  io.stdout(`Deleted session [${meta.id.slice(0, 8)}] "${meta.title}"\n`);
  return ExitCode.success;
}

/** `nyz export <query> [--format md|json] [-o FILE]`; without -o, a timestamped file in the cwd. */
export async function exportSession(
  io: CommandIo,
  query: string,
  options: { format?: string; output?: string },
): Promise<number> {
  const format = options.format ?? "md";
  if (format !== "md" && format !== "json")
    throw new UsageError(`--format must be md or json, got '${format}'`);
  const store = storeFor(io);
  const record = await store.load((await store.resolveOne(query)).id);
  const text = format === "md" ? exportSessionMarkdown(record) : exportSessionJson(record);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const path = resolve(io.cwd, options.output ?? `nyzhi-export-${stamp}.${format}`);
  await writeFileAtomic(path, text);
  io.stdout(
    `Exported session [${record.meta.id.slice(0, 8)}] "${record.meta.title}" (${record.messages.length} messages, ${Buffer.byteLength(text)} bytes) to ${path}\n`,
  );
  return ExitCode.success;
}
