import type { StreamPart } from "../model/stream-part.js";

type BlockKind = "text" | "reasoning";

/**
 * For vendors that stream bare text and reasoning deltas (OpenAI Chat, Gemini): opens a block on
 * the first delta, closes it when the other kind starts, a tool call starts, or the stream ends.
 * Block ids are `text-0`, `reasoning-1`, … in order.
 */
export class OpenBlockTracker {
  private open: { kind: BlockKind; id: string } | undefined;
  private count = 0;

  /** Parts for one delta of `kind`: maybe an end and a start, then the delta. */
  delta(kind: BlockKind, delta: string): StreamPart[] {
    if (delta === "") return [];
    const parts: StreamPart[] = [];
    if (this.open?.kind !== kind) {
      parts.push(...this.close());
      const id = `${kind}-${this.count++}`;
      this.open = { kind, id };
      parts.push({ type: kind === "text" ? "text-start" : "reasoning-start", id });
    }
    const id = this.open!.id;
    parts.push(kind === "text" ? { type: "text-delta", id, delta } : { type: "reasoning-delta", id, delta });
    return parts;
  }

  /** The end part of the open block, if any. */
  close(): StreamPart[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    return [
      open.kind === "text" ? { type: "text-end", id: open.id } : { type: "reasoning-end", id: open.id },
    ];
  }
}
