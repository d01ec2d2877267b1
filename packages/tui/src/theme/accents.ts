/** Accent colours by `tui.accent` name (hex). "monochrome" depends on the mode. */
export const ACCENTS: Readonly<Record<string, string>> = {
  "nyzhi-orange": "#ee6018",
  copper: "#c49a6c",
  blue: "#4f8ff7",
  orange: "#f08c2e",
  emerald: "#34b27b",
  violet: "#8b6cf0",
  rose: "#e8678a",
  amber: "#f2b01e",
  cyan: "#22b8cf",
  red: "#e5484d",
  pink: "#ec6cb9",
  teal: "#14a89a",
  indigo: "#6366f1",
  lime: "#84cc16",
  gold: "#d4a72c",
  coral: "#f27c6b",
  lavender: "#a78bfa",
  mint: "#5fd3a8",
  sky: "#38bdf8",
  ruby: "#d2224a",
  sapphire: "#2563eb",
  jade: "#1f9d74",
  magenta: "#d946ef",
  slate: "#7b8794",
};

/** The fallback for an unknown accent name, as in the original. */
const FALLBACK_ACCENT = "#ee6018";

/** Resolves an accent name (case-insensitive, `_` or `-`) or a `#rrggbb` value to hex. */
export function accentColour(name: string, mode: "dark" | "light"): string {
  const trimmed = name.trim();
  if (/^#[0-9a-f]{6}$/i.test(trimmed)) return trimmed;
  const key = trimmed.toLowerCase().replaceAll("_", "-");
  if (key === "monochrome") return mode === "dark" ? "#e6e1dc" : "#2b2724";
  return ACCENTS[key] ?? FALLBACK_ACCENT;
}
