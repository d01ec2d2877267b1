import { type AnsiCode, reduceAnsiCodesIncremental, styledCharsFromTokens, tokenize } from "@alcalzone/ansi-tokenize";

/** One cell: its character and the SGR codes in force when it was written. */
export interface Cell {
  value: string;
  styles: string;
}

const styleKey = (styles: readonly AnsiCode[]) =>
  styles
    .map((style) => style.code)
    .sort()
    .join("");

/**
 * A terminal's screen for tests of what a frame writer sends: printable text (one cell per
 * character, the output's `\n` as CR LF, as a tty's ONLCR makes it), CR, and the CSI sequences
 * ink and the writer use (cursor up, down, to a column; erase in line and below; SGR). The screen
 * grows downward without a limit; anything else throws, so a writer cannot slip in a sequence this
 * model would get wrong. Like tmux (its `scroll-on-clear`), erasing below from the top-left cell
 * moves the screen's rows into `history` first; DECSC / DECRC (`ESC 7`, `ESC 8`) save and restore
 * the cursor.
 */
export class ScreenModel {
  rows: Cell[][] = [[]];
  row = 0;
  column = 0;
  /** Rows a clear at the top-left pushed into the scrollback, as text. */
  history: string[] = [];
  #styles: AnsiCode[] = [];
  #saved: [number, number] = [0, 0];

  write(data: string): void {
    let index = 0;
    while (index < data.length) {
      const rest = data.slice(index);
      const csi = /^\x1b\[([?\d;]*)([A-Za-z])/.exec(rest);
      if (csi) {
        this.#control(csi[1] ?? "", csi[2] as string, csi[0]);
        index += csi[0].length;
        continue;
      }
      if (rest.startsWith("\x1b7") || rest.startsWith("\x1b8")) {
        if (rest[1] === "7") this.#saved = [this.row, this.column];
        else [this.row, this.column] = this.#saved;
        index += 2;
        continue;
      }
      if (rest.startsWith("\x1b")) throw new Error(`unexpected escape ${JSON.stringify(rest.slice(0, 8))}`);
      const character = String.fromCodePoint(rest.codePointAt(0) as number);
      index += character.length;
      if (character === "\r") this.column = 0;
      else if (character === "\n") this.#moveTo(this.row + 1, 0);
      else {
        const line = this.#line(this.row);
        while (line.length < this.column) line.push({ value: " ", styles: "" });
        line[this.column] = { value: character, styles: styleKey(this.#styles) };
        this.column++;
      }
    }
  }

  /** The screen's rows as text, trailing blanks dropped. */
  text(): string[] {
    return this.rows.map((line) =>
      line
        .map((cell) => cell.value)
        .join("")
        .trimEnd(),
    );
  }

  #control(parameter: string, final: string, sequence: string): void {
    const count = Number(parameter || "1");
    if (final === "A") this.row = Math.max(0, this.row - count);
    else if (final === "B") this.#moveTo(Math.min(this.row + count, this.rows.length - 1), this.column);
    else if (final === "G") this.column = count - 1;
    else if (final === "K" && parameter === "2") this.rows[this.row] = [];
    else if (final === "K") this.#line(this.row).splice(this.column);
    else if (final === "J") {
      if (this.row === 0 && this.column === 0) this.history.push(...this.text().filter((row) => row !== ""));
      this.#line(this.row).splice(this.column);
      this.rows.splice(this.row + 1);
    } else if (final === "m") {
      const codes = tokenize(sequence).filter((token): token is AnsiCode => token.type === "ansi");
      this.#styles = reduceAnsiCodesIncremental(this.#styles, codes);
    } else if (final === "h" || final === "l") {
      // Cursor shown or hidden, synchronized updates: nothing on the screen.
    } else throw new Error(`unexpected sequence ${JSON.stringify(sequence)}`);
  }

  #moveTo(row: number, column: number): void {
    while (this.rows.length <= row) this.rows.push([]);
    this.row = row;
    this.column = column;
  }

  #line(row: number): Cell[] {
    while (this.rows.length <= row) this.rows.push([]);
    return this.rows[row] as Cell[];
  }
}

/** What `frame` (ink's rows, styled) shows, as cells, row by row. */
export function expectedCells(frame: string): Cell[][] {
  const rows = frame.split("\n");
  if (frame.endsWith("\n")) rows.pop();
  return rows.map((row) =>
    styledCharsFromTokens(tokenize(row)).map((char) => ({ value: char.value, styles: styleKey(char.styles) })),
  );
}

/** The model's cells with trailing unstyled blanks dropped, for comparing with `expectedCells`. */
export function trimmed(rows: readonly Cell[][]): Cell[][] {
  return rows.map((row) => {
    const copy = [...row];
    while (copy.length > 0 && copy.at(-1)?.value === " " && copy.at(-1)?.styles === "") copy.pop();
    return copy;
  });
}
