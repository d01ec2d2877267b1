import { describe, expect, it } from "vitest";
import { Utf8StreamDecoder } from "./utf8-stream-decoder.js";

/** Decodes `bytes` cut at every position with both decoders; they must agree. */
function splitsAgree(bytes: Uint8Array): void {
  for (let cut = 0; cut <= bytes.length; cut++) {
    const ours = new Utf8StreamDecoder();
    const web = new TextDecoder("utf-8");
    const mine = ours.write(bytes.subarray(0, cut)) + ours.write(bytes.subarray(cut)) + ours.end();
    const theirs =
      web.decode(bytes.subarray(0, cut), { stream: true }) +
      web.decode(bytes.subarray(cut), { stream: true }) +
      web.decode();
    expect(mine, `cut at ${cut}`).toBe(theirs);
  }
}

describe("Utf8StreamDecoder", () => {
  it("decodes as TextDecoder does: characters cut between chunks, a leading BOM, invalid bytes", () => {
    const encoder = new TextEncoder();
    splitsAgree(encoder.encode("data: é✓😀 ü\n\n"));
    splitsAgree(encoder.encode("\uFEFFevent: x\ndata: \uFEFFkept\n\n"));
    splitsAgree(new Uint8Array([0x61, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0x61, 0xf0, 0x9f, 0x98]));
  });
});
