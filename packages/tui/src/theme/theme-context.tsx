import { createContext, type ReactNode, useContext } from "react";
import { resolveTheme, type Theme } from "./theme.js";

const DEFAULT_THEME = resolveTheme({ theme: "dark" });

const ThemeContext = createContext<Theme>(DEFAULT_THEME);

/** Provides the theme to every component below; without it components draw the dark theme. */
export function ThemeProvider({ theme, children }: { theme: Theme; children?: ReactNode }) {
  return <ThemeContext.Provider value={theme}>{children}</ThemeContext.Provider>;
}

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
