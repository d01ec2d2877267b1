export const packageName = "@nyzhi/provider";
