import { resolve } from "node:path";
import { resolveDirs, writeFileAtomic } from "@nyzhi/config";
import {
  type DamagedSession,
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

/** A damaged file's row, marked in the title column, then a line with its path and what is wrong. */
function formatDamagedRow(file: DamagedSession): string {
  const updated = file.modifiedAt.replace("T", " ").slice(0, 16);
  const row = `${file.id.slice(0, 8).padEnd(10)} ${"[damaged]".padEnd(40)} ${"-".padStart(4)}  ${"-".padEnd(20)} ${updated}`;
  return `${row}\n${" ".repeat(11)}${file.path}: ${file.problem}`;
}

/**
 * `nyz sessions [query] [--json]`: newest first, at most 50 rows, then every damaged session file
 * (truncated, not JSON) with its path and what is wrong. `--json` prints the readable sessions and
 * names the damaged files on stderr, so the JSON keeps its shape.
 */
export async function listSessions(
  io: CommandIo,
  query: string | undefined,
  options: { json?: boolean },
): Promise<number> {
  const { sessions, damaged } = await storeFor(io).scan(query);
  if (options.json) {
    io.stdout(`${JSON.stringify(sessions, null, 2)}\n`);
    for (const file of damaged)
      io.stderr(`Warning: damaged session ${file.id}: ${file.path}: ${file.problem}\n`);
    return ExitCode.success;
  }
  if (sessions.length === 0 && damaged.length === 0) {
    io.stdout(query ? `No sessions matching '${query}'\n` : "No saved sessions.\n");
    return ExitCode.success;
  }
  io.stdout(
    `${"ID".padEnd(10)} ${"TITLE".padEnd(40)} ${"MSGS".padStart(4)}  ${"PROVIDER/MODEL".padEnd(20)} UPDATED\n`,
  );
  for (const meta of sessions.slice(0, 50)) io.stdout(`${formatRow(meta)}\n`);
  if (sessions.length > 50) io.stdout(`... and ${sessions.length - 50} more\n`);
  for (const file of damaged) io.stdout(`${formatDamagedRow(file)}\n`);
  return ExitCode.success;
}

/** `nyz session rename <query> <title>`. */
export async function renameSession(io: CommandIo, query: string, title: string): Promise<number> {
  const store = storeFor(io);
  const meta = await store.rename((await store.resolveOne(query)).id, title);
  io.stdout(`Renamed session [${meta.id.slice(0, 8)}] to "${meta.title}"\n`);
  return ExitCode.success;
}

/** `nyz session delete <query>`: a damaged session file can be deleted too. */
export async function deleteSession(io: CommandIo, query: string): Promise<number> {
  const store = storeFor(io);
  const resolved = await store.resolveAny(query);
  if (resolved.kind === "damaged") {
    await store.delete(resolved.damaged.id);
    io.stdout(`Deleted damaged session [${resolved.damaged.id.slice(0, 8)}] (${resolved.damaged.path})\n`);
    return ExitCode.success;
  }
  await store.delete(resolved.meta.id);
  io.stdout(`Deleted session [${resolved.meta.id.slice(0, 8)}] "${resolved.meta.title}"\n`);
  return ExitCode.success;
}

/**
 * `nyz export <query> [--format md|json] [-o FILE]`; without -o, a timestamped file in the cwd;
 * `-o -` writes the export itself to stdout, and nothing else.
 */
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
  if (options.output === "-") {
    io.stdout(text.endsWith("\n") ? text : `${text}\n`);
    return ExitCode.success;
  }
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const path = resolve(io.cwd, options.output ?? `nyzhi-export-${stamp}.${format}`);
  await writeFileAtomic(path, text);
  io.stdout(
    `Exported session [${record.meta.id.slice(0, 8)}] "${record.meta.title}" (${record.messages.length} messages, ${Buffer.byteLength(text)} bytes) to ${path}\n`,
  );
  return ExitCode.success;
}
