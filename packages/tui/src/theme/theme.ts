import { accentColour } from "./accents.js";

/** The terminal's background, as far as the app can tell. */
export type ThemeMode = "dark" | "light";

/** Environment variables the theme reads (`NO_COLOR`, `COLORFGBG`); pass an explicit object in tests. */
export type ThemeEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * The colours every component draws with (hex). A token is "" when colours are off (`NO_COLOR`):
 * ink draws an empty colour as the terminal's default, so `<Text color={theme.success}>` prints
 * plain text then.
 */
export interface Theme {
  mode: ThemeMode;
  /** False under `NO_COLOR`: every token below is "". */
  color: boolean;
  text: string;
  muted: string;
  subtle: string;
  border: string;
  accent: string;
  success: string;
  danger: string;
  warning: string;
  info: string;
  /** Colours of highlighted code, by highlight.js scope (keyword, string, comment …). */
  syntax: Readonly<Record<SyntaxScope, string>>;
}

export type SyntaxScope = "keyword" | "string" | "number" | "comment" | "title" | "type" | "meta" | "attr";

/** The `tui.colors` keys a user may override (hex `#rrggbb`), as the config schema names them. */
export type ThemeColourOverrides = Partial<
  Record<
    | "text_primary"
    | "text_secondary"
    | "text_tertiary"
    | "border_default"
    | "accent"
    | "success"
    | "danger"
    | "warning"
    | "info",
    string
  >
>;

export interface ResolveThemeOptions {
  /** `tui.theme`: "dark", "light", "auto" (detect from `COLORFGBG`), or a preset name. Default "auto". */
  theme?: string | undefined;
  /** `tui.accent`: an accent name or `#rrggbb`. Default "copper". */
  accent?: string | undefined;
  /** `tui.colors` overrides, applied last. */
  colors?: ThemeColourOverrides | undefined;
  env?: ThemeEnvironment | undefined;
}

type Palette = Omit<Theme, "mode" | "color" | "accent" | "syntax"> & { syntax: Theme["syntax"] };

const DARK: Palette = {
  text: "#e6e1dc",
  muted: "#a39e98",
  subtle: "#6f6a65",
  border: "#4a4541",
  success: "#7fbf7f",
  danger: "#e06c6c",
  warning: "#e5b567",
  info: "#6cb6d9",
  syntax: {
    keyword: "#c792ea",
    string: "#a5d6a7",
    number: "#f78c6c",
    comment: "#6f6a65",
    title: "#82aaff",
    type: "#ffcb6b",
    meta: "#89ddff",
    attr: "#f07178",
  },
};

const LIGHT: Palette = {
  text: "#2b2724",
  muted: "#5f5a55",
  subtle: "#8a847e",
  border: "#c9c2ba",
  success: "#2e7d32",
  danger: "#c62828",
  warning: "#9a6700",
  info: "#0b6e99",
  syntax: {
    keyword: "#7b1fa2",
    string: "#2e7d32",
    number: "#bf360c",
    comment: "#8a847e",
    title: "#1565c0",
    type: "#8d6e00",
    meta: "#00838f",
    attr: "#c62828",
  },
};

/** Preset names of the original whose background is light; every other name is dark. */
const LIGHT_PRESETS = new Set([
  "light",
  "nyzhi-light",
  "solarized-light",
  "catppuccin-latte",
  "nord-light",
  "rose-pine-dawn",
  "kanagawa-light",
  "everforest-light",
  "ayu-light",
  "one-light",
  "night-owl-light",
  "github-light",
  "dawnfox",
  "noctis-lux",
  "min-light",
  "gruvbox-light",
  "winter-light",
]);

/** True when `NO_COLOR` is set to a non-empty value (no-color.org). */
export function colourDisabled(env: ThemeEnvironment): boolean {
  const value = env.NO_COLOR;
  return value !== undefined && value !== "";
}

/**
 * Reads the background from `COLORFGBG` ("fg;bg" or "fg;default;bg", ANSI colour numbers, set by
 * rxvt, Konsole, iTerm2 …): background 7 or 9–15 is light, 0–6 and 8 dark. Undefined when unset.
 */
export function detectThemeMode(env: ThemeEnvironment): ThemeMode | undefined {
  const value = env.COLORFGBG;
  if (!value) return undefined;
  const background = Number(value.split(";").at(-1));
  if (!Number.isInteger(background)) return undefined;
  return background === 7 || (background >= 9 && background <= 15) ? "light" : "dark";
}

/** Maps a `tui.theme` value to a mode: "auto" detects (dark when unknown). */
export function themeModeOf(setting: string, env: ThemeEnvironment): ThemeMode {
  const name = setting.trim().toLowerCase().replaceAll("_", "-");
  if (name === "" || name === "auto") return detectThemeMode(env) ?? "dark";
  return LIGHT_PRESETS.has(name) ? "light" : "dark";
}

/** Builds the theme from the `tui` config keys and the environment. */
export function resolveTheme(options: ResolveThemeOptions = {}): Theme {
  const env = options.env ?? {};
  const mode = themeModeOf(options.theme ?? "auto", env);
  const palette = mode === "light" ? LIGHT : DARK;
  if (colourDisabled(env)) return colourless(mode);
  const overrides = options.colors ?? {};
  return {
    mode,
    color: true,
    text: overrides.text_primary ?? palette.text,
    muted: overrides.text_secondary ?? palette.muted,
    subtle: overrides.text_tertiary ?? palette.subtle,
    border: overrides.border_default ?? palette.border,
    accent: overrides.accent ?? accentColour(options.accent ?? "copper", mode),
    success: overrides.success ?? palette.success,
    danger: overrides.danger ?? palette.danger,
    warning: overrides.warning ?? palette.warning,
    info: overrides.info ?? palette.info,
    syntax: palette.syntax,
  };
}

function colourless(mode: ThemeMode): Theme {
  const none = "";
  return {
    mode,
    color: false,
    text: none,
    muted: none,
    subtle: none,
    border: none,
    accent: none,
    success: none,
    danger: none,
    warning: none,
    info: none,
    syntax: {
      keyword: none,
      string: none,
      number: none,
      comment: none,
      title: none,
      type: none,
      meta: none,
      attr: none,
    },
  };
}
