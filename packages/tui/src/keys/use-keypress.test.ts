import { describe, expect, it } from "vitest";
import { splitKeys } from "./use-keypress.js";

describe("splitKeys", () => {
  it("splits a control key from the text that arrived in the same read", () => {
    expect(splitKeys("\x15/exit")).toEqual(["\x15", "/exit"]);
    expect(splitKeys("ab\x7fc")).toEqual(["ab", "\x7f", "c"]);
    expect(splitKeys("hi\r")).toEqual(["hi", "\r"]);
    expect(splitKeys("one\rtwo\r")).toEqual(["one", "\r", "two", "\r"]);
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
