import type { ModelMessage } from "@nyzhi/provider";
import type { ChangeTracker } from "../changes/change-tracker.js";
import type { UndoReport } from "../changes/checkpoints.js";

/** A prompt the person sent earlier in this session, which a rewind can go back to. */
export interface EarlierPrompt {
  /** Where its message is in the lead's thread. */
  index: number;
  /** What was typed (without the `@path` context block and images). */
  text: string;
  /** Images it carried (a rewind puts back the text only). */
  images: number;
}

/** What a rewind to a prompt would do, for the person to confirm. */
export interface RewindPlan {
  prompt: EarlierPrompt;
  /** Messages that leave the thread (the prompt's and everything after it). */
  messages: number;
  /** Later prompts that leave with them. */
  laterPrompts: number;
  /** Files changed since the prompt was sent, each put back as it was then (as `/undo` does). */
  files: { path: string; action: "restore" | "remove" }[];
  /** Files whose earlier content was not kept (too large, unreadable): they stay as they are. */
  cannotUndo: { path: string; reason: string }[];
  /** The prompt came from an earlier run of the session: file changes of that run are not known. */
  fromEarlierRun: boolean;
}

/** What a rewind did: the prompt's text (for the input) and the files it put back. */
export interface RewindResult {
  text: string;
  undo: UndoReport | undefined;
}

const SHELL_LINE = "I ran a shell command myself:";

/**
 * Keeps, for each prompt this process sent, where the change tracker stood when its turn began,
 * so a rewind undoes exactly the changes made since; and rewinds the thread.
 */
export class ThreadRewind {
  /** Each turn's user message → `tracker.mark()` before the turn. */
  readonly #marks = new WeakMap<ModelMessage, number>();
  /** The messages that were in the thread when the session was opened (earlier runs). */
  readonly #earlier: WeakSet<ModelMessage>;

  constructor(
    private readonly thread: ModelMessage[],
    private readonly tracker: ChangeTracker,
  ) {
    this.#earlier = new WeakSet(thread);
  }

  /** Call before a turn starts; pass the turn's user message once it has run. */
  beginTurn(): (request: ModelMessage | undefined) => void {
    const mark = this.tracker.mark();
    return (request) => {
      if (request && !this.#marks.has(request)) this.#marks.set(request, mark);
    };
  }

  /** The prompts of this session still in the thread, oldest first. */
  prompts(): EarlierPrompt[] {
    const prompts: EarlierPrompt[] = [];
    this.thread.forEach((message, index) => {
      if (message.role !== "user") return;
      if (!this.#marks.has(message) && !this.#earlier.has(message)) return;
      const parts =
        typeof message.content === "string"
          ? [{ type: "text" as const, text: message.content }]
          : message.content;
      const typed = parts.findLast((part) => part.type === "text");
      const text = typed?.type === "text" ? typed.text : "";
      const images = parts.filter((part) => part.type === "image").length;
      if (text.startsWith(SHELL_LINE) || (text.trim() === "" && images === 0)) return;
      prompts.push({ index, text, images });
    });
    return prompts;
  }

  /** What rewinding to the prompt at thread index `index` would drop and undo. */
  plan(index: number): RewindPlan {
    const prompts = this.prompts();
    const prompt = prompts.find((candidate) => candidate.index === index);
    if (!prompt) throw new Error(`No prompt at thread index ${index} to rewind to.`);
    const mark = this.#markOf(index);
    const first = new Map<string, { before: boolean; undoable: boolean; reason?: string }>();
    for (const change of this.tracker.changesSince(mark)) {
      if (first.has(change.path)) continue;
      first.set(change.path, {
        before: change.before !== undefined,
        undoable: change.undoable,
        ...(change.reason ? { reason: change.reason } : {}),
      });
    }
    const files: RewindPlan["files"] = [];
    const cannotUndo: RewindPlan["cannotUndo"] = [];
    for (const [path, change] of first) {
      if (!change.undoable)
        cannotUndo.push({ path, reason: change.reason ?? "its earlier content was not kept" });
      else files.push({ path, action: change.before ? "restore" : "remove" });
    }
    return {
      prompt,
      messages: this.thread.length - index,
      laterPrompts: prompts.filter((candidate) => candidate.index > index).length,
      files,
      cannotUndo,
      fromEarlierRun: this.#earlier.has(this.thread[index]!),
    };
  }

  /** Drops the prompt at `index` and everything after it from the thread and undoes the file changes made since. */
  async rewind(index: number): Promise<RewindResult> {
    const { prompt } = this.plan(index);
    const mark = this.#markOf(index);
    const undo = await this.tracker.undoSince(mark);
    this.thread.splice(index);
    return { text: prompt.text, undo };
  }

  /** Prompts of earlier runs predate every change this process recorded. */
  #markOf(index: number): number {
    return this.#marks.get(this.thread[index]!) ?? 0;
  }
}
