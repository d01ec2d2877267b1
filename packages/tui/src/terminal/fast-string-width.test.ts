import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import fastStringWidth from "./fast-string-width.js";

const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x2ff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2190, 0x21ff],
  [0x2500, 0x259f],
  [0x2800, 0x28ff],
];

describe("fastStringWidth", () => {
  it("takes as narrow only characters string-width measures one column wide", () => {
    for (const [from, to] of RANGES)
      for (let code = from; code <= to; code++) {
        const char = String.fromCodePoint(code);
        expect({ code: code.toString(16), width: stringWidth(char) }).toEqual({
          code: code.toString(16),
          width: 1,
        });
        expect(fastStringWidth(char)).toBe(1);
      }
  });

  it("answers as string-width does for the rows an app draws, coloured or not, wide or joined", () => {
    const rows = [
      "",
      "plain ascii row",
      "│ › Ask anything… (/ for commands, @ for files)   │",
      "\u001b[36m⠹\u001b[39m task general-purpose: bench child 6 · 605ms",
      "╭──────────╮",
      "日本語 and ascii",
      "emoji 👍🏽 and 👨‍👩‍👧",
      "e\u0301 combining",
      "soft\u00adhyphen",
      "\u001b[1m日本\u001b[22m",
      "tab\there",
      "\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007",
    ];
    for (const row of rows) {
      expect({ row, width: fastStringWidth(row) }).toEqual({ row, width: stringWidth(row) });
      expect({ row, again: fastStringWidth(row) }).toEqual({ row, again: stringWidth(row) });
    }
    expect(fastStringWidth("⚡", { ambiguousIsNarrow: false })).toBe(
      stringWidth("⚡", { ambiguousIsNarrow: false }),
    );
    expect(fastStringWidth("·", { ambiguousIsNarrow: false })).toBe(
      stringWidth("·", { ambiguousIsNarrow: false }),
    );
  });
});
