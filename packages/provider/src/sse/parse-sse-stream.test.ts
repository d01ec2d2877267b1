import { describe, expect, it } from "vitest";
import { parseSseStream, type SseEvent } from "./parse-sse-stream.js";

async function parse(chunks: (string | Uint8Array)[]): Promise<SseEvent[]> {
  const encoder = new TextEncoder();
  async function* source(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield typeof chunk === "string" ? encoder.encode(chunk) : chunk;
  }
  const events: SseEvent[] = [];
  for await (const event of parseSseStream(source())) events.push(event);
  return events;
}

const event = (data: string, type?: string, id?: string): SseEvent => ({ event: type, data, id });

describe("parseSseStream", () => {
  it("parses LF-separated events with event names", async () => {
    expect(await parse(["event: a\ndata: 1\n\nevent: b\ndata: 2\n\n"])).toEqual([
      event("1", "a"),
      event("2", "b"),
    ]);
  });

  it("handles CRLF line endings, including a CRLF split across chunks", async () => {
    expect(await parse(["data: 1\r", "\n\r\n", "data: 2\r\n\r\n"])).toEqual([event("1"), event("2")]);
  });

  it("handles bare CR line endings", async () => {
    expect(await parse(["data: 1\r\rdata: 2\r\r"])).toEqual([event("1"), event("2")]);
  });

  it("decodes a UTF-8 character split across chunks", async () => {
    const bytes = new TextEncoder().encode("data: привіт 🎉\n\n");
    const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
    expect(await parse(chunks)).toEqual([event("привіт 🎉")]);
  });

  it("delivers a last event without a trailing blank line", async () => {
    expect(await parse(["data: 1\n\ndata: last"])).toEqual([event("1"), event("last")]);
    expect(await parse(["data: 1\n\ndata: last\n"])).toEqual([event("1"), event("last")]);
  });

  it("ignores comments and unknown fields", async () => {
    expect(await parse([": keep-alive\n\n:another\ndata: x\nretry: 10\nfoo: bar\n\n"])).toEqual([event("x")]);
  });

  it("joins multi-line data with newlines and keeps a bare data line as an empty line", async () => {
    expect(await parse(["data: a\ndata:\ndata:b\n\n"])).toEqual([event("a\n\nb")]);
  });

  it("strips one leading space only and keeps colons in values", async () => {
    expect(await parse(['data:  {"a": "b:c"}\n\n'])).toEqual([event(' {"a": "b:c"}')]);
  });

  it("skips events without data and carries the last id", async () => {
    expect(await parse(["event: ping\n\nid: 7\ndata: x\n\ndata: y\n\n"])).toEqual([
      event("x", undefined, "7"),
      event("y", undefined, "7"),
    ]);
  });

  it("handles events split at arbitrary points", async () => {
    const text = 'event: message\r\ndata: {"n":1}\r\n\r\nevent: message\r\ndata: {"n":2}\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(await parse([text.slice(0, cut), text.slice(cut)])).toEqual([
        event('{"n":1}', "message"),
        event('{"n":2}', "message"),
      ]);
    }
  });
});
