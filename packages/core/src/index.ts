export const packageName = "@nyzhi/core";
