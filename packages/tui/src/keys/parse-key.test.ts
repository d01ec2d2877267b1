import { describe, expect, it } from "vitest";
import { isCtrl, isNewlineKey, parseKey } from "./parse-key.js";

const pick = (sequence: string) => {
  const { name, text, ctrl, meta, shift } = parseKey(sequence);
  return { name, text, ctrl, meta, shift };
};

describe("parseKey", () => {
  it("tells Backspace from Delete (ink's useInput reports both as delete)", () => {
    expect(pick("\u007f").name).toBe("backspace");
    expect(pick("\b").name).toBe("backspace");
    expect(pick("\u001b[3~").name).toBe("delete");
    expect(pick("\u001b\u007f")).toMatchObject({ name: "backspace", meta: true });
  });

  it("recognises the Enter variants terminals send", () => {
    expect(isNewlineKey(parseKey("\r"))).toBe(false);
    expect(pick("\n").name).toBe("linefeed");
    for (const sequence of ["\n", "\u001b\r", "\u001b[13;2u", "\u001b[27;2;13~", "\u001b[13;3u"]) {
      expect(isNewlineKey(parseKey(sequence))).toBe(true);
    }
  });

  it("parses arrows, Home/End, Shift+Tab, Ctrl and Alt letters, and pasted text", () => {
    expect(pick("\u001b[A").name).toBe("up");
    expect(pick("\u001bOB").name).toBe("down");
    expect(pick("\u001b[1;5D")).toMatchObject({ name: "left", ctrl: true });
    expect(pick("\u001b[H").name).toBe("home");
    expect(pick("\u001b[4~").name).toBe("end");
    expect(pick("\u001b[Z")).toMatchObject({ name: "tab", shift: true });
    expect(isCtrl(parseKey("\u0012"), "r")).toBe(true);
    expect(isCtrl(parseKey("\u001b[107;5u"), "k")).toBe(true);
    expect(pick("\u001bb")).toMatchObject({ name: "text", text: "b", meta: true });
    expect(pick("j")).toEqual({ name: "text", text: "j", ctrl: false, meta: false, shift: false });
    expect(pick("你好\n世界")).toMatchObject({ name: "text", text: "你好\n世界" });
    expect(pick("\u001b[200~").name).toBe("paste-start");
    expect(pick("\u001b[201~").name).toBe("paste-end");
  });
});
