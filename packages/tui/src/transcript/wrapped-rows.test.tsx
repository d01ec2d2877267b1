import { describe, expect, it } from "vitest";
import { renderAtWidth } from "../test-support/render-at-width.js";
import { resolveTheme } from "../theme/theme.js";
import { ThemeProvider } from "../theme/theme-context.js";
import { TranscriptItemView } from "./transcript-item-view.js";

const theme = resolveTheme({ env: {} });
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

function answerRows(text: string, width: number): string[] {
  const view = renderAtWidth(
    <ThemeProvider theme={theme}>
      <TranscriptItemView
        item={{ kind: "assistant", id: "a", done: true, text, agent: { agentId: "lead", depth: 0 } }}
        width={width}
      />
    </ThemeProvider>,
    width,
  );
  const frame = stripAnsi(view.lastFrame() ?? "");
  view.unmount();
  return frame.split("\n");
}

/**
 * A word that fills its row exactly used to push the space after it to the start of the next
 * row (ink wraps with wrap-ansi's `trim: false`): after a resize to such a width, wrapped lines
 * gained a leading space, or a row holding only a space (issue 27). `patches/ink@6.8.0.patch`.
 */
describe("wrapped rows of an answer", () => {
  const sentence = "terminal when it is drawn at a narrow width, and then we resize it again and again.";

  it("start at the text's column at every width, with no blank row inside a paragraph", () => {
    for (let width = 30; width <= 90; width++) {
      const rows = answerRows(sentence, width).filter((row) => row.trim() !== "");
      const column = rows[0]!.search(/terminal/);
      for (const row of rows.slice(1)) {
        expect({ width, row, column: row.search(/\S/) }).toEqual({ width, row, column });
      }
      expect(rows.join(" ").replace(/\s+/g, " ")).toContain(sentence);
    }
  });

  it("keeps a line's own leading spaces (an indented code line) where the text has them", () => {
    const rows = answerRows("```\n    indented code line\n```", 40).filter((row) => row.includes("indented"));
    expect(rows[0]).toMatch(/ {4}indented code line/);
  });
});
