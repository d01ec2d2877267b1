import { randomUUID } from "node:crypto";
import { NyzhiError } from "@nyzhi/config";
import type { SessionStore } from "../saved-sessions/session-store.js";
import type { SessionRecord } from "../saved-sessions/session-types.js";

/** Which saved session a host continues: the newest of the project, or one named by id prefix or title. */
export type SessionResume = { latest: true } | { query: string };

/**
 * Opens the session record a host works on — a new one, or a saved one to continue — and holds its
 * lock until `release`: a second process on the same session fails at once instead of racing.
 */
export async function openSessionRecord(
  store: SessionStore,
  resume: SessionResume | undefined,
  meta: { provider: string; model: string; projectRoot: string },
): Promise<{ record: SessionRecord; release: () => Promise<void> }> {
  if (resume) {
    let id: string;
    if ("latest" in resume) {
      const latest = await store.latest({ projectRoot: meta.projectRoot });
      if (!latest) {
        throw new NyzhiError(
          "session_not_found",
          `No sessions to continue in ${meta.projectRoot}. \`nyz sessions\` lists all of them; --session <id> resumes any.`,
        );
      }
      id = latest.id;
    } else id = (await store.resolveOne(resume.query)).id;
    // Taken before the thread is read, so no other run's turn can land in between.
    const release = await store.lock(id);
    try {
      return { record: await store.load(id), release };
    } catch (error) {
      await release();
      throw error;
    }
  }
  const now = new Date().toISOString();
  const id = randomUUID();
  return {
    record: {
      meta: { id, title: "", createdAt: now, updatedAt: now, messageCount: 0, ...meta },
      messages: [],
    },
    release: await store.lock(id),
  };
}
