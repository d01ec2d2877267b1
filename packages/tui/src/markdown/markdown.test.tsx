import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { resolveTheme } from "../theme/theme.js";
import { ThemeProvider } from "../theme/theme-context.js";
import { highlightCode } from "./highlight-code.js";
import { Markdown } from "./markdown.js";

const SAMPLE = [
  "# Title",
  "",
  "Some **bold**, *italic*, `code` and a [link](https://example.com).",
  "",
  "- one",
  "  - nested",
  "- two",
  "",
  "3. third",
  "4. fourth",
  "",
  "> quoted text",
  "",
  "| name | size |",
  "|:-----|-----:|",
  "| a.ts | 12 |",
  "| bb.ts | 3456 |",
].join("\n");

describe("Markdown", () => {
  it("renders headings, inline styles, links, nested and ordered lists, quotes and tables", () => {
    const { lastFrame } = render(<Markdown text={SAMPLE} width={60} />);
    expect(lastFrame()).toBe(
      [
        "Title",
        "",
        "Some bold, italic, code and a link (https://example.com).",
        "",
        "• one",
        "  • nested",
        "• two",
        "",
        "3. third",
        "4. fourth",
        "",
        "│ quoted text",
        "",
        "name  │ size",
        "──────┼─────",
        "a.ts  │   12",
        "bb.ts │ 3456",
      ].join("\n"),
    );
  });

  it("keeps a blank line between the items of a loose list, as a streamed answer shows them", () => {
    // A streaming answer goes to the scrollback at each block, one loose item at a time
    // (transcript/split-streaming-text.ts): the whole answer must be spaced the same.
    const loose = "1. first item\n\n   its second paragraph\n\n2. second item\n\n3. third item\n";
    const whole = render(<Markdown text={loose} width={60} />).lastFrame();
    const streamed = ["1. first item\n\n   its second paragraph\n", "2. second item\n", "3. third item\n"]
      .map((part) => render(<Markdown text={part} width={60} />).lastFrame())
      .join("\n\n");
    expect(whole).toBe(streamed);
    expect(render(<Markdown text={"1. one\n2. two\n"} width={60} />).lastFrame()).toBe("1. one\n2. two");
  });

  it("renders a fence as code, and an unclosed fence while streaming as code too", () => {
    const closed = render(<Markdown text={"Run:\n\n```sh\nnpm test\n```\n\nDone."} width={40} />);
    expect(closed.lastFrame()).toBe("Run:\n\nsh\n  npm test\n\nDone.");
    const streaming = render(<Markdown text={"Here:\n\n```ts\nconst a = 1;\nconst b"} width={40} />);
    expect(streaming.lastFrame()).toBe("Here:\n\nts\n  const a = 1;\n  const b");
  });

  it("fits a wide table into 40 columns, cutting long cells with an ellipsis", () => {
    const table = [
      "| file | description | lines |",
      "|---|---|---|",
      "| packages/tui/src/markdown/markdown.tsx | renders markdown blocks with memoization | 160 |",
    ].join("\n");
    const { lastFrame } = renderAtWidth(<Markdown text={table} />, 40);
    expect(widestLine(lastFrame())).toBeLessThanOrEqual(40);
    expect(lastFrame()).toContain("…");
    expect(lastFrame()).toContain("160");
  });

  it("colours code by syntax, and prints no colour codes under NO_COLOR", () => {
    const lines = highlightCode('const answer = "42"; // note', "ts");
    expect(lines[0]).toEqual([
      { text: "const", scope: "keyword" },
      { text: " answer = ", scope: undefined },
      { text: '"42"', scope: "string" },
      { text: "; ", scope: undefined },
      { text: "// note", scope: "comment" },
    ]);
    expect(highlightCode("x <- 1", "no-such-language")).toEqual([[{ text: "x <- 1", scope: undefined }]]);
    const plain = render(
      <ThemeProvider theme={resolveTheme({ env: { NO_COLOR: "1" } })}>
        <Markdown text={"Use `npm`:\n\n```ts\nconst a = 1;\n```"} width={40} />
      </ThemeProvider>,
    );
    expect(plain.lastFrame()).toBe("Use `npm`:\n\nts\n  const a = 1;");
  });
});
