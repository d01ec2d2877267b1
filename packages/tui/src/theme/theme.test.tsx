import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";

// Colour codes only reach a frame when chalk believes the terminal has colours; it decides when
// it is first imported, so this runs before the imports below.
vi.hoisted(() => {
  vi.stubEnv("FORCE_COLOR", "3");
});

const { DiffView } = await import("../diff/diff-view.js");
const { Markdown } = await import("../markdown/markdown.js");
const { ThemeProvider } = await import("./theme-context.js");
const { accentColour } = await import("./accents.js");
const { detectThemeMode, resolveTheme, themeModeOf } = await import("./theme.js");

const COLOUR_CODE = /\u001b\[(?:3[0-9]|9[0-7]|38;)/;

describe("theme", () => {
  it("detects a light or dark background from COLORFGBG", () => {
    expect(detectThemeMode({ COLORFGBG: "0;15" })).toBe("light");
    expect(detectThemeMode({ COLORFGBG: "15;default;0" })).toBe("dark");
    expect(detectThemeMode({})).toBeUndefined();
    expect(themeModeOf("auto", { COLORFGBG: "0;7" })).toBe("light");
    expect(themeModeOf("auto", {})).toBe("dark");
    expect(themeModeOf("light", {})).toBe("light");
    expect(themeModeOf("Solarized_Light", {})).toBe("light");
    expect(themeModeOf("tokyonight", { COLORFGBG: "0;15" })).toBe("dark");
  });

  it("resolves the accent by name or hex, falling back for unknown names", () => {
    expect(resolveTheme({ accent: "blue", env: {} }).accent).toBe("#4f8ff7");
    expect(accentColour("#123abc", "dark")).toBe("#123abc");
    expect(accentColour("no-such", "dark")).toBe("#ee6018");
    expect(resolveTheme({ colors: { accent: "#000001" }, env: {} }).accent).toBe("#000001");
  });

  it("colours markdown code and diffs, and prints no colour at all under NO_COLOR", () => {
    const content = (
      <>
        <Markdown text={"```ts\nconst a = 1;\n```"} width={40} />
        <DiffView diff={"@@ -1,1 +1,1 @@\n-a\n+b"} />
      </>
    );
    const coloured = render(<ThemeProvider theme={resolveTheme({ env: {} })}>{content}</ThemeProvider>);
    expect(coloured.lastFrame()).toMatch(COLOUR_CODE);
    const plain = render(
      <ThemeProvider theme={resolveTheme({ env: { NO_COLOR: "1" } })}>{content}</ThemeProvider>,
    );
    expect(plain.lastFrame()).not.toMatch(COLOUR_CODE);
    expect(resolveTheme({ env: { NO_COLOR: "" } }).color).toBe(true);
  });
});
