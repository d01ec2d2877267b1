import { describe, expect, it } from "vitest";
import { renderAtWidth } from "../test-support/render-at-width.js";
import { resolveTheme } from "../theme/theme.js";
import { ThemeProvider } from "../theme/theme-context.js";
import { TranscriptItemView } from "./transcript-item-view.js";

const theme = resolveTheme({ env: {} });
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

function rows(message: string, width: number): string[] {
  const view = renderAtWidth(
    <ThemeProvider theme={theme}>
      <TranscriptItemView
        item={{
          kind: "notice",
          id: "n",
          done: true,
          agent: { agentId: "app", depth: 0 },
          message,
          tone: "info",
        }}
        width={width}
      />
    </ThemeProvider>,
    width,
  );
  const frame = stripAnsi(view.lastFrame() ?? "");
  view.unmount();
  return frame.split("\n").filter((row) => row.trim() !== "");
}

describe("a notice's wrapped rows", () => {
  it("keep the line's indent (a /help entry, a role's description), never column 0", () => {
    const lines = rows(
      [
        "Commands:",
        "  /model [id] — Pick the model, or switch to an id given on the line after the command",
        "explorer  enabled  built-in",
        "          Reads the codebase and reports what it found, with paths and line numbers",
      ].join("\n"),
      40,
    );
    expect(lines[0]).toBe("※ Commands:");
    expect(lines.length).toBeGreaterThan(6);
    // Every row after the first is under the text, past the marker; each entry's rows under its start.
    for (const row of lines.slice(1)) expect(row.startsWith("  ")).toBe(true);
    const described = lines.findIndex((row) => row.includes("Reads the codebase"));
    for (const row of lines.slice(described)) expect(row.startsWith(" ".repeat(12))).toBe(true);
    const model = lines.findIndex((row) => row.includes("/model"));
    expect(lines[model + 1]?.startsWith(" ".repeat(4))).toBe(true);
  });
});
