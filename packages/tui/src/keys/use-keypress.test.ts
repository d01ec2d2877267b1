import { describe, expect, it } from "vitest";
import { splitKeys } from "./use-keypress.js";

describe("splitKeys", () => {
  it("splits a control key from the text that arrived in the same read", () => {
    expect(splitKeys("\x15/exit")).toEqual(["\x15", "/exit"]);
    expect(splitKeys("ab\x7fc")).toEqual(["ab", "\x7f", "c"]);
    expect(splitKeys("hi\r")).toEqual(["hi", "\r"]);
    expect(splitKeys("one\rtwo\r")).toEqual(["one", "\r", "two", "\r"]);
  });

  it("takes lines joined by CRs in one read as pasted text (a terminal without bracketed paste)", () => {
    expect(splitKeys("first line\rsecond line\rthird line\r")).toEqual([
      "first line\nsecond line\nthird line\n",
    ]);
    const long = `${"x".repeat(150)}\r${"y".repeat(100)}`;
    expect(splitKeys(long)).toEqual([long.replace("\r", "\n")]);
    // Keys typed ahead of a busy app stay keys: a control key among them, or only two short lines.
    expect(splitKeys("one\rtwo\x15three\r")).toEqual(["one", "\r", "two", "\x15", "three", "\r"]);
  });

  it("keeps pasted text whole: tabs, line feeds, CR LF pairs", () => {
    expect(splitKeys("a\tb\nc\r\nd")).toEqual(["a\tb\nc\r\nd"]);
  });

  it("leaves single keys and escape sequences alone", () => {
    expect(splitKeys("\x15")).toEqual(["\x15"]);
    expect(splitKeys("\x1b[A")).toEqual(["\x1b[A"]);
    expect(splitKeys("x")).toEqual(["x"]);
  });
});
