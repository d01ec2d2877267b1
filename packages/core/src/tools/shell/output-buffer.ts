/**
 * Keeps a command's output within `maxChars` code points while it streams: the head as it
 * arrives and a rolling tail, so a command that prints gigabytes costs bounded memory and the
 * model still sees how it started and how it ended.
 */
export class OutputBuffer {
  private head = "";
  private headChars = 0;
  private tail = "";
  private omitted = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(maxChars: number) {
    this.headLimit = Math.floor(maxChars * 0.6);
    this.tailLimit = Math.max(0, maxChars - this.headLimit);
  }

  append(text: string): void {
    if (this.headChars < this.headLimit) {
      const points = Array.from(text);
      const room = this.headLimit - this.headChars;
      const taken = points.slice(0, room).join("");
      this.head += taken;
      this.headChars += Math.min(room, points.length);
      if (points.length <= room) return;
      text = points.slice(room).join("");
    }
    this.tail += text;
    if (this.tail.length > this.tailLimit * 4 + 1024) this.trimTail();
  }

  private trimTail(): void {
    const points = Array.from(this.tail);
    if (points.length <= this.tailLimit) return;
    this.omitted += points.length - this.tailLimit;
    this.tail = points.slice(points.length - this.tailLimit).join("");
  }

  /** True when nothing at all was written. */
  get isEmpty(): boolean {
    return this.headChars === 0;
  }

  toString(): string {
    this.trimTail();
    if (this.omitted === 0) return this.head + this.tail;
    return `${this.head}\n\n… [output truncated: ${this.omitted} characters omitted] …\n\n${this.tail}`;
  }
}
