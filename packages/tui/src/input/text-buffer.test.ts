import { describe, expect, it } from "vitest";
import {
  bufferOf,
  cursorPosition,
  deleteBackward,
  deleteForward,
  deleteToLineStart,
  deleteWordBackward,
  insertText,
  moveDown,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveUp,
  type TextBuffer,
} from "./text-buffer.js";

const repeat = (buffer: TextBuffer, step: (b: TextBuffer) => TextBuffer, times: number) =>
  Array.from({ length: times }).reduce<TextBuffer>((current) => step(current), buffer);

describe("text buffer", () => {
  it("moves and deletes by grapheme in CJK text", () => {
    const start = bufferOf("你好世界");
    const middle = repeat(start, moveLeft, 2);
    expect(middle.cursor).toBe(2);
    expect(insertText(middle, "，")).toEqual({ text: "你好，世界", cursor: 3 });
    expect(deleteBackward(middle)).toEqual({ text: "你世界", cursor: 1 });
    expect(deleteForward(middle)).toEqual({ text: "你好界", cursor: 2 });
    expect(cursorPosition(middle).column).toBe(4);
  });

  it("never splits an emoji with modifiers, a ZWJ family or a flag", () => {
    const text = "a👍🏽b👨‍👩‍👧c🇺🇦d";
    let buffer = bufferOf(text);
    const stops: number[] = [];
    while (buffer.cursor > 0) {
      buffer = moveLeft(buffer);
      stops.push(buffer.cursor);
    }
    expect(stops.map((stop) => text.slice(stop, moveRight({ text, cursor: stop }).cursor))).toEqual([
      "d",
      "🇺🇦",
      "c",
      "👨‍👩‍👧",
      "b",
      "👍🏽",
      "a",
    ]);
    const afterFamily = { text, cursor: text.indexOf("c") };
    expect(deleteBackward(afterFamily).text).toBe("a👍🏽bc🇺🇦d");
    expect(insertText(afterFamily, "X").text).toBe("a👍🏽b👨‍👩‍👧Xc🇺🇦d");
  });

  it("moves up and down by cell column across lines of different widths", () => {
    const buffer = { text: "你好世界\nabcdefgh\nxy", cursor: "你好世界\nabcd".length };
    const up = moveUp(buffer)!;
    expect(up.cursor).toBe(2);
    expect(moveDown(up)!.cursor).toBe("你好世界\nabcd".length);
    const down = moveDown(buffer)!;
    expect(down.cursor).toBe(buffer.text.length);
    expect(moveUp(up)).toBeUndefined();
    expect(moveDown(down)).toBeUndefined();
  });

  it("handles line start/end, Ctrl+U and Ctrl+W", () => {
    const buffer = { text: "first line\nsecond word here", cursor: "first line\nsecond word".length };
    expect(moveLineStart(buffer).cursor).toBe("first line\n".length);
    expect(moveLineEnd(buffer).cursor).toBe(buffer.text.length);
    expect(deleteToLineStart(buffer)).toEqual({ text: "first line\n here", cursor: "first line\n".length });
    expect(deleteWordBackward(buffer)).toEqual({
      text: "first line\nsecond  here",
      cursor: "first line\nsecond ".length,
    });
    expect(deleteWordBackward({ text: "a  b   ", cursor: 7 })).toEqual({ text: "a  ", cursor: 3 });
    expect(insertText(bufferOf("x"), "1\r\n2\r3")).toEqual({ text: "x1\n2\n3", cursor: 6 });
  });
});
