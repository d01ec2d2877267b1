import { appendFile, mkdir, readFile, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { errorMessage, getLogger, redactKnownSecrets } from "@nyzhi/config";
import type { ModelMessage, Usage } from "@nyzhi/provider";
import { addUsage, emptyUsage } from "@nyzhi/provider";
import type { CompletedStep } from "../agent-loop/agent-context.js";
import { titleFromMessages } from "./session-title.js";
import type { SavedAgentThread, SessionMeta, SessionRecord } from "./session-types.js";

/**
 * One line of a session journal (`<id>.jsonl`): what one completed step added to one thread.
 * `messages` replace the thread from index `base` on, so a thread compacted mid-turn is written
 * again from where it changed, and a line read twice changes nothing.
 */
interface JournalLine {
  /** Counts from 1 across the session; the snapshot's `journalSeq` says which lines it holds. */
  seq: number;
  /** RFC 3339, UTC: becomes the session's `updatedAt`. */
  at: string;
  meta: Pick<SessionMeta, "id" | "title" | "createdAt" | "provider" | "model" | "projectRoot">;
  /** The subagent whose thread this is, without its messages; absent: the lead's thread. */
  agent?: Omit<SavedAgentThread, "messages">;
  base?: number;
  messages?: ModelMessage[];
  /** What the step spent (tokens; USD), added to the session's totals. */
  usage?: Usage;
  costUsd?: number;
}

/** The key of the lead's thread among the journal's threads (agent ids never are empty). */
const LEAD = "";

/**
 * A session's append-only journal beside its snapshot (`<id>.json`): each completed step of the
 * lead or of a subagent appends one complete JSON line with the messages it added, so a run
 * killed mid-turn resumes with every finished step. A step costs one `appendFile` (no fsync) and
 * a serialisation of its new messages only, however long the thread. A line cut short by a kill
 * is ignored on load and cut off before the next run appends. Saving the snapshot
 * (`SessionStore.save`) records the last line it holds and removes the journal.
 */
export class SessionJournal {
  /** Per thread, the messages the journal holds (the same objects as the thread's, compared by identity). */
  readonly #persisted = new Map<string, ModelMessage[]>();
  #seq: number;
  #writes: Promise<void> = Promise.resolve();
  #warned = false;
  readonly #record: SessionRecord;

  /** `record` is the session as loaded (snapshot and journal): the journal goes on from it. */
  constructor(
    readonly path: string,
    record: SessionRecord,
  ) {
    this.#record = record;
    this.#seq = record.journalSeq ?? 0;
    this.#persisted.set(LEAD, [...record.messages]);
    for (const [id, saved] of Object.entries(record.agents ?? {}))
      this.#persisted.set(id, [...saved.messages]);
  }

  /** Makes the folder, and cuts off a line a killed run left half-written, so appends start on a new line. */
  async prepare(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    let text: Buffer;
    try {
      text = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    if (text.length > 0 && text[text.length - 1] !== 0x0a)
      await truncate(this.path, text.lastIndexOf(0x0a) + 1);
  }

  /**
   * Appends one step: what it added to `thread` — the lead's when `agent` is absent, else that
   * subagent's (its saved form from `AgentManager.snapshot()`) — and what it spent. Without
   * `thread` (an agent whose thread the session does not keep) only the spending is recorded.
   * Call it from `afterStep`, while the thread is whole: the line is built at once and written in
   * order. Resolves once written; never rejects (a failure is logged, and the thread is written
   * whole at its next step).
   */
  recordStep(
    step: { thread?: readonly ModelMessage[]; usage: Usage; costUsd: number },
    agent?: SavedAgentThread,
  ): Promise<void> {
    const spent = Object.values(step.usage).some((tokens) => tokens > 0) || step.costUsd > 0;
    if (!step.thread && !spent) return this.#writes;
    const key = agent?.agentId ?? LEAD;
    const line: JournalLine = { seq: ++this.#seq, at: new Date().toISOString(), meta: this.#meta() };
    if (agent) {
      const { messages: _messages, ...info } = agent;
      line.agent = info;
    }
    if (step.thread) {
      const persisted = this.#persisted.get(key) ?? [];
      const base = sharedPrefixLength(persisted, step.thread);
      const added = step.thread.slice(base);
      replaceFrom(persisted, base, added);
      this.#persisted.set(key, persisted);
      line.base = base;
      line.messages = added;
    }
    if (Object.values(step.usage).some((tokens) => tokens > 0)) line.usage = step.usage;
    if (step.costUsd > 0) line.costUsd = step.costUsd;
    this.#record.journalSeq = this.#seq;
    // Every known credential `[redacted]`, as in the snapshot.
    const text = `${redactKnownSecrets(JSON.stringify(line))}\n`;
    this.#writes = this.#writes.then(() => this.#append(text, key));
    return this.#writes;
  }

  /** Resolves when every line recorded so far is written (before saving the snapshot). */
  flush(): Promise<void> {
    return this.#writes;
  }

  async #append(text: string, key: string): Promise<void> {
    try {
      // Private to the user, as the snapshot: a thread can hold anything the model read.
      await appendFile(this.path, text, { mode: 0o600 });
    } catch (error) {
      // The next line of this thread must not build on one that is not there: write it whole.
      this.#persisted.set(key, []);
      if (this.#warned) return;
      this.#warned = true;
      getLogger().warn(
        { path: this.path, error: errorMessage(error) },
        "could not append to the session journal",
      );
    }
  }

  #meta(): JournalLine["meta"] {
    const { id, title, createdAt, provider, model, projectRoot } = this.#record.meta;
    return { id, title, createdAt, provider, model, ...(projectRoot !== undefined ? { projectRoot } : {}) };
  }
}

/**
 * The `afterStep` hook (`AgentHost.afterStep`) that journals a session: the lead's steps into its
 * thread, a subagent's into its saved thread (`agents`: `AgentManager.snapshot()`), and only what
 * the step spent for an agent the session does not keep (a teammate).
 */
export function journalSteps(
  journal: SessionJournal,
  options: { leadId: string; agents: () => Record<string, SavedAgentThread> | undefined },
): (step: CompletedStep) => Promise<void> {
  return (step) => {
    if (step.agent.agentId === options.leadId) return journal.recordStep(step);
    const saved = options.agents()?.[step.agent.agentId];
    if (saved) return journal.recordStep(step, saved);
    return journal.recordStep({ usage: step.usage, costUsd: step.costUsd });
  };
}

/** Replaces `array` from `base` on with `items`, in place (no spread: a thread can be long). */
function replaceFrom(array: ModelMessage[], base: number, items: readonly ModelMessage[]): void {
  array.length = base;
  for (const item of items) array.push(item);
}

/** How many leading messages two threads share (by identity: compaction replaces the ones it changes). */
function sharedPrefixLength(persisted: readonly ModelMessage[], thread: readonly ModelMessage[]): number {
  const limit = Math.min(persisted.length, thread.length);
  let index = 0;
  while (index < limit && persisted[index] === thread[index]) index++;
  return index;
}

/**
 * The session as its snapshot (`undefined`: none yet) and its journal's `text` leave it: lines
 * after the snapshot's `journalSeq` applied in order. A last line without its newline (a kill
 * mid-write) is ignored; so are unreadable lines and lines that do not fit the thread they extend
 * (logged). `undefined` when there is neither snapshot nor a readable line.
 */
export function replayJournal(
  snapshot: SessionRecord | undefined,
  text: string,
  path: string,
): SessionRecord | undefined {
  let record = snapshot;
  const after = snapshot?.journalSeq ?? 0;
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  for (const [index, raw] of complete.split("\n").entries()) {
    if (raw === "") continue;
    let line: JournalLine;
    try {
      line = JSON.parse(raw) as JournalLine;
    } catch (error) {
      getLogger().warn(
        { path, line: index + 1, error: errorMessage(error) },
        "skipping unreadable journal line",
      );
      continue;
    }
    if (typeof line.seq !== "number" || !line.meta || line.seq <= after) continue;
    record ??= { meta: { ...line.meta, updatedAt: line.at, messageCount: 0 }, messages: [] };
    if (!applyLine(record, line)) {
      getLogger().warn({ path, line: index + 1 }, "skipping a journal line that does not fit its thread");
      continue;
    }
    record.journalSeq = line.seq;
  }
  if (!record) return undefined;
  record.meta.messageCount = record.messages.length;
  if (!record.meta.title || record.meta.title === "untitled")
    record.meta.title = titleFromMessages(record.messages);
  return record;
}

/** Applies one line to `record`; false when its `base` is past the end of the thread it extends. */
function applyLine(record: SessionRecord, line: JournalLine): boolean {
  if (line.messages) {
    const base = line.base ?? 0;
    const current = line.agent ? (record.agents?.[line.agent.agentId]?.messages ?? []) : record.messages;
    if (base > current.length) return false;
    replaceFrom(current, base, line.messages);
    if (line.agent)
      record.agents = { ...record.agents, [line.agent.agentId]: { ...line.agent, messages: current } };
  }
  const meta = record.meta;
  meta.provider = line.meta.provider;
  meta.model = line.meta.model;
  if (line.meta.title) meta.title = line.meta.title;
  meta.updatedAt = line.at;
  if (line.usage) meta.usage = addUsage(meta.usage ?? emptyUsage(), line.usage);
  if (line.costUsd) meta.costUsd = (meta.costUsd ?? 0) + line.costUsd;
  return true;
}
