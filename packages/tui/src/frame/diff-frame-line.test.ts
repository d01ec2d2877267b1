import { describe, expect, it } from "vitest";
import { expectedCells, ScreenModel, trimmed } from "./__fixtures__/screen-model.js";
import { diffFrameLine } from "./diff-frame-line.js";

const BORDER = "\x1b[38;5;180m";
const RESET_FG = "\x1b[39m";
const INVERSE = "\x1b[7m";
const INVERSE_OFF = "\x1b[27m";

/** The input box's row as ink renders it, `typed` in it and the cursor drawn at `cursor`. */
function inputRow(typed: string, cursor = typed.length, width = 60): string {
  const at = typed[cursor] ?? " ";
  const text = `${typed.slice(0, cursor)}${INVERSE}${at}${INVERSE_OFF}${typed.slice(cursor + 1)}`;
  const used = 3 + Math.max(typed.length, cursor + 1);
  return `${BORDER}│${RESET_FG} ${BORDER}› ${RESET_FG}${text}${" ".repeat(width - 2 - used)}${BORDER}│${RESET_FG}`;
}

/** The screen after writing `before`, then what `diffFrameLine` writes to make it `after`. */
function screenAfter(before: string, after: string): ReturnType<typeof trimmed> {
  const screen = new ScreenModel();
  screen.write(`${before}\r`);
  screen.write(diffFrameLine(before, after, new Map()));
  return trimmed(screen.rows.slice(0, 1));
}

const PAIRS: [string, string, string][] = [
  ["a key typed at the end", inputRow("hello"), inputRow("hellox")],
  ["a key deleted", inputRow("hello"), inputRow("hell")],
  ["the cursor moved left", inputRow("hello", 5), inputRow("hello", 2)],
  ["a key typed in the middle", inputRow("hello", 2), inputRow("hexllo", 3)],
  ["only a colour changed", "\x1b[31mred or green\x1b[39m", "\x1b[32mred or green\x1b[39m"],
  ["a colour changed mid-line", "plain \x1b[31mred\x1b[39m text", "plain \x1b[32mred\x1b[39m text"],
  ["bold turned on for the tail", "status: idle", "status: \x1b[1midle\x1b[22m"],
  ["styles end differently after the change", "\x1b[1mab\x1b[22mcd", "\x1b[1mabc\x1b[22md"],
  ["a wide character before the change", "日本 abc", "日本 abd"],
  ["an emoji after the change", "abc ✅ done", "abd ✅ done"],
  ["a wider stretch", "ab", "a日"],
  ["a line made shorter", "a long line", "a"],
  ["a line made longer", "a", "a long line"],
  [
    "a spinner frame",
    "\x1b[38;5;180m⠋\x1b[38;5;145m working · 1s\x1b[39m",
    "\x1b[38;5;180m⠙\x1b[38;5;145m working · 2s\x1b[39m",
  ],
];

describe("diffFrameLine", () => {
  it.each(PAIRS)("leaves the row as the new line shows it: %s", (_, before, after) => {
    expect(screenAfter(before, after)).toEqual(trimmed(expectedCells(after)));
  });

  it("writes a typed key as its column, the changed cells and a reset, without splitting the row", () => {
    const written = diffFrameLine(inputRow("hello"), inputRow("hellox"));
    expect(written).toBe(`\x1b[10Gx${INVERSE} ${INVERSE_OFF}\x1b[0m`);
  });

  it("keeps every row equal to the new line through random edits of a styled input row", () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const letters = "abc xyz日✓";
    let typed = "";
    let cursor = 0;
    let row = inputRow(typed, cursor);
    for (let step = 0; step < 300; step++) {
      const action = random(4);
      if (action === 0 && typed.length < 40) {
        const letter = letters[random(letters.length)] as string;
        typed = typed.slice(0, cursor) + letter + typed.slice(cursor);
        cursor++;
      } else if (action === 1 && cursor > 0) {
        typed = typed.slice(0, cursor - 1) + typed.slice(cursor);
        cursor--;
      } else if (action === 2) cursor = random(typed.length + 1);
      const next = inputRow(typed, cursor);
      expect(screenAfter(row, next), `step ${step}: ${JSON.stringify(typed)}`).toEqual(
        trimmed(expectedCells(next)),
      );
      row = next;
    }
  });
});
