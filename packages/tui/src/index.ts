export const packageName = "@nyzhi/tui";
